"""The task text a front end gives the agent: what to fix, where, and what the editor saw.

"Fix this" sends the file's relative path, the selected lines with their numbers (taken from
the editor's buffer, unsaved changes included), the problems the editor reports there and the
user's optional instruction (design §2.3); "ask" sends the user's words and where they are
looking. Every front end builds the same text, so the model sees one task whatever editor the
user works in; the front end only translates its own types (an LSP `Diagnostic`) into these.

A selection is not a limit the user thinks about: "select all, fix this" on a generated file of
5,000 lines would put megabytes into one prompt (read_file itself refuses files over 256 KB).
So the excerpt is clipped at `MAX_EXCERPT_LINES` lines or `MAX_EXCERPT_BYTES`, whichever comes
first, at a line boundary, and the task says which lines were shown and that the model can
read the rest itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.diff import split_lines

MAX_EXCERPT_LINES: Final = 400
MAX_EXCERPT_BYTES: Final = 64 * 1024

Severity = Literal["error", "warning", "info", "hint"]


@dataclass(frozen=True)
class Problem:
    """A problem the editor reports in the file: its 0-based `line`, and what it says."""

    line: int
    message: str
    severity: Severity | None = None
    source: str | None = None
    code: str | int | None = None


@dataclass(frozen=True)
class Excerpt:
    """The selected lines as the task shows them: `text` (numbered, maybe clipped), `lines`
    (0-based, inclusive, within the file) and `shown`, the last line `text` holds
    (`lines[0] - 1` when not even the first line fits)."""

    text: str
    lines: tuple[int, int]
    shown: int


def line_span(start_line: int, end_line: int, end_character: int) -> tuple[int, int]:
    """0-based inclusive lines a range covers (a range ending at column 0 stops before)."""
    last = end_line - 1 if end_character == 0 and end_line > start_line else end_line
    return start_line, max(start_line, last)


def numbered(source: str, first: int, last: int) -> str:
    """Lines `first`..`last` (0-based, inclusive) of `source`, numbered from 1 like `cat -n`."""
    lines = split_lines(source)
    if not lines:
        return ""
    first = min(first, len(lines) - 1)
    last = min(last, len(lines) - 1)
    width = len(str(last + 1))
    return "\n".join(
        f"{number + 1:>{width}} | {lines[number].rstrip(chr(13) + chr(10))}"
        for number in range(first, last + 1)
    )


def clipped_last(source: str, first: int, last: int) -> int:
    """The last line (0-based) of `first`..`last` the excerpt can show within both caps, as
    `numbered` formats it; `first - 1` when even line `first` alone is over the byte cap."""
    lines = split_lines(source)
    if not lines:
        return last  # an empty file: nothing to clip
    end = min(last, len(lines) - 1, first + MAX_EXCERPT_LINES - 1)
    width = len(str(end + 1))
    used = 0
    for number in range(first, end + 1):
        shown = f"{number + 1:>{width}} | {lines[number].rstrip(chr(13) + chr(10))}"
        used += len(shown.encode("utf-8")) + 1  # and its newline
        if used > MAX_EXCERPT_BYTES:
            return number - 1
    return end


def select_excerpt(source: str, span: tuple[int, int]) -> Excerpt:
    """The numbered lines `span` covers (see `line_span`), kept inside the file and clipped
    to the excerpt's caps."""
    top = max(len(split_lines(source)) - 1, 0)
    lines = (min(span[0], top), min(span[1], top))
    shown = clipped_last(source, *lines)
    shown_text = numbered(source, lines[0], shown) if shown >= lines[0] else ""
    return Excerpt(shown_text, lines, shown)


def _span(first: int, last: int) -> str:
    """1-based `first`-`last` as the user reads it: `7`, or `7-12`."""
    return f"{first + 1}" if first == last else f"{first + 1}-{last + 1}"


def clip_note(rel: str, lines: tuple[int, int], shown: int, locale: Locale) -> str | None:
    """What the task says when the excerpt stops at line `shown` before the selection ends."""
    first, last = lines
    if shown >= last:
        return None
    caps = {"max_lines": MAX_EXCERPT_LINES, "max_kb": MAX_EXCERPT_BYTES // 1024}
    if shown < first:
        return text("runs.task.clipped_none", locale, path=rel, lines=_span(first, last), **caps)
    shown_span, rest = _span(first, shown), _span(shown + 1, last)
    return text("runs.task.clipped", locale, path=rel, shown=shown_span, rest=rest, **caps)


def describe_problem(problem: Problem, locale: Locale) -> str:
    """One line of the task's problem list in the session's locale: `- line 2: error [ruff E1]
    message` (`- 第 2 行：錯誤 [ruff E1] message`). The message is the editor's own."""
    parts = [text(f"runs.task.severity.{problem.severity}", locale)] if problem.severity else []
    origin = " ".join(str(p) for p in (problem.source, problem.code) if p not in (None, ""))
    if origin:
        parts.append(f"[{origin}]")
    parts.append(" ".join(problem.message.split()))
    return text("runs.task.problem", locale, line=problem.line + 1, problem=" ".join(parts))


def fix_task(
    rel: str,
    excerpt: str,
    lines: tuple[int, int],
    problems: Sequence[Problem],
    instruction: str | None,
    locale: Locale,
    *,
    shown: int | None = None,
) -> str:
    """The prompt of "fix this"; `shown` is the last line in `excerpt` when it is clipped."""
    where = _span(*lines)
    parts = [text("runs.task.fix", locale, path=rel, lines=where), "", excerpt]
    if shown is not None and (note := clip_note(rel, lines, shown, locale)) is not None:
        parts += ["", note]
    if problems:
        parts += ["", text("runs.task.diagnostics", locale)]
        parts += [describe_problem(p, locale) for p in problems]
    if instruction and instruction.strip():
        parts += ["", text("runs.task.instruction", locale, instruction=instruction.strip())]
    else:
        parts += ["", text("runs.task.fix_default", locale)]
    return "\n".join(parts)


def ask_task(
    prompt: str,
    rel: str | None,
    excerpt: str | None,
    lines: tuple[int, int] | None,
    locale: Locale,
    *,
    shown: int | None = None,
) -> str:
    """The prompt of "ask": the user's words, plus where they are looking (`shown`: the last
    line in `excerpt` when it is clipped)."""
    parts = [prompt.strip()]
    note = None
    if rel is not None and lines is not None and shown is not None:
        note = clip_note(rel, lines, shown, locale)
    if rel is not None and lines is not None and (excerpt or note):
        parts += ["", text("runs.task.selection", locale, path=rel, lines=_span(*lines))]
        parts += ["", excerpt] if excerpt else []
        parts += ["", note] if note else []
    elif rel is not None:
        parts += ["", text("runs.task.current_file", locale, path=rel)]
    return "\n".join(parts)


@dataclass(frozen=True)
class Attachment:
    """A file the user attached to a message (an ACP client's resource or resource link).

    `name` is its POSIX path relative to the folder when it is inside, else its name as the
    client gave it; `text` the text attached with it (None: a link only); `first_line` the
    0-based line of the file that text starts at (a selection); `inside` whether KeSi's tools
    may open it (inside the folder and not on the ignore list); `binary` when it came as bytes.
    """

    name: str
    text: str | None = None
    first_line: int = 0
    inside: bool = True
    binary: bool = False


def attached_task(prompt: str, attachments: Sequence[Attachment], locale: Locale) -> str:
    """The prompt of a message with attachments: the user's words, then each attachment (its
    text numbered from its own first line and clipped to the excerpt's caps, or, for a link,
    where the model can read it)."""
    parts = [prompt.strip()] if prompt.strip() else []
    if attachments:
        parts += ["", text("runs.task.attached", locale)]
        for attachment in attachments:
            parts += ["", _attachment(attachment, locale)]
    return "\n".join(parts).strip()


def _attachment(item: Attachment, locale: Locale) -> str:
    if item.binary:
        return text("runs.task.attached_binary", locale, name=item.name)
    if item.text is None:
        key = "runs.task.attached_link" if item.inside else "runs.task.attached_link_outside"
        return text(key, locale, path=item.name)
    count = max(len(split_lines(item.text)), 1)
    lines = (item.first_line, item.first_line + count - 1)
    padded = "\n" * item.first_line + item.text  # so the numbers are the file's own
    shown = clipped_last(padded, *lines)
    excerpt = numbered(padded, lines[0], shown) if shown >= lines[0] else ""
    key = "runs.task.attached_text" if item.inside else "runs.task.attached_text_outside"
    parts = [text(key, locale, path=item.name, lines=_span(*lines))]
    parts += [excerpt] if excerpt else []
    note = clip_note(item.name, lines, shown, locale) if item.inside else None
    if note is None and shown < lines[1]:
        note = text(
            "runs.task.attached_clipped", locale, rest=_span(max(shown + 1, lines[0]), lines[1])
        )
    parts += [note] if note else []
    return "\n".join(parts)
