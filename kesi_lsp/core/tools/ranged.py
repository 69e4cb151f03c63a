"""Ranged reads: numbered lines of one part of a file, and a footer saying which part.

Day 06 points at Claude Code's Read tool: `offset` and `limit` are its "page buttons" (翻頁鈕)
and it numbers lines so the model can say *where*; Day 10 repeats that a file too large for one
answer is read in pages. KeSi keeps the seed's whole, exact text for a read without a range of
a file that fits (it is what edit_file's `old_string` is copied from), and gives numbered parts
for a ranged read and for a file too large to return at once. Line endings are kept exactly as
they are, so text copied from a part still matches the file byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.diff import split_lines

MAX_PART_LINES: Final = 2000
"""Lines in a part when the model gives no `limit`."""
MAX_PART_BYTES: Final = 64 * 1024
"""Bytes in a part when the model gives no `limit` (a first look at a big file stays small)."""
MAX_LINE_CHARS: Final = 2000
"""A longer line (minified code, a log's one-line JSON) is cut, with a note of the rest."""


@dataclass(frozen=True)
class Part:
    """Lines `first`..`last` (1-based, inclusive) of a text of `total` lines, numbered."""

    first: int
    last: int
    total: int
    body: str


@dataclass(frozen=True)
class RangeError:
    """Why a range cannot be read: a catalog key and its fields."""

    key: str
    fields: dict[str, object]


def check_range(offset: int | None, limit: int | None) -> RangeError | None:
    """A range the model asked for that can never be right, whatever the file holds."""
    if offset is not None and offset < 1:
        return RangeError("tools.read.bad_offset", {"offset": offset})
    if limit is not None and limit < 1:
        return RangeError("tools.read.bad_limit", {"limit": limit})
    return None


def _shown(line: str, locale: Locale) -> str:
    """The line as the part shows it: cut after MAX_LINE_CHARS, its line ending kept."""
    body = line.rstrip("\r\n")
    if len(body) <= MAX_LINE_CHARS:
        return line
    ending = line[len(body) :]
    cut = text("tools.read.line_cut", locale, count=len(body) - MAX_LINE_CHARS)
    return body[:MAX_LINE_CHARS] + cut + (ending or "")


def select(
    content: str,
    offset: int | None,
    limit: int | None,
    *,
    byte_cap: int,
    path: str,
    locale: Locale,
) -> Part | RangeError:
    """The part of `content` from line `offset` (default 1), at most `limit` lines (default
    MAX_PART_LINES) and at most `byte_cap` bytes of numbered text (always at least one line)."""
    lines = split_lines(content)
    total = len(lines)
    first = offset or 1
    if total == 0:
        return RangeError("tools.read.empty_offset", {"path": path, "offset": first})
    if first > total:
        return RangeError("tools.read.past_end", {"path": path, "offset": first, "total": total})
    wanted_last = min(total, first + (limit or MAX_PART_LINES) - 1)
    width = len(str(wanted_last))
    out: list[str] = []
    used = 0
    for number in range(first, wanted_last + 1):
        shown = f"{number:>{width}} | {_shown(lines[number - 1], locale)}"
        used += len(shown.encode("utf-8", "surrogatepass"))
        if out and used > byte_cap:
            break
        out.append(shown)
    last = first + len(out) - 1
    body = "".join(out)
    if not body.endswith(("\n", "\r")):
        body += "\n"
    return Part(first, last, total, body)


def footer(part: Part, path: str, locale: Locale) -> str:
    """Which part of how many lines this is, and where the next part starts."""
    fields = {"first": part.first, "last": part.last, "total": part.total, "path": path}
    if part.last < part.total:
        return text("tools.read.part", locale, next=part.last + 1, **fields)
    if part.first == 1:
        return text("tools.read.part_whole", locale, **fields)
    return text("tools.read.part_end", locale, **fields)


def summary(part: Part, locale: Locale) -> str:
    """The output panel's line for a ranged read."""
    return text(
        "tools.read.summary_part", locale, first=part.first, last=part.last, total=part.total
    )
