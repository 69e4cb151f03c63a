"""What the agent has seen of a file it read only in parts (Days 06 and 10's ranged reads).

`Session.reads` keeps, per file, the sha256 of the whole text as it was when read_file last
returned some of it: edit_file and write_file compare it with the current text (Day 10). A
ranged read returns only some lines, so the session also keeps which lines the model has seen
of that same text: write_file replaces a whole file, and doing that over lines the model never
saw would destroy them unseen. Parts of one version that together cover every line count as a
whole read, so a big file read page by page can still be rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass

Span = tuple[int, int]
"""1-based, inclusive line numbers."""


@dataclass(frozen=True)
class ReadParts:
    """The lines seen of one version (`digest`) of a file of `total` lines."""

    digest: str
    total: int
    spans: tuple[Span, ...]

    @property
    def whole(self) -> bool:
        return self.spans == ((1, self.total),) or self.total == 0

    def describe(self) -> str:
        """`1-200, 401-600`: for the refusal that says which lines were seen."""
        return ", ".join(f"{a}-{b}" for a, b in self.spans)


def merge(spans: tuple[Span, ...], new: Span) -> tuple[Span, ...]:
    """`spans` with `new` added, sorted, overlapping or touching spans joined."""
    out: list[Span] = []
    for first, last in sorted((*spans, new)):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return tuple(out)


def seen(previous: ReadParts | None, digest: str, total: int, span: Span) -> ReadParts:
    """What is seen after reading `span` of version `digest` (earlier parts count only when
    they were of the same version)."""
    spans: tuple[Span, ...] = ()
    if previous is not None and previous.digest == digest:
        spans = previous.spans
    return ReadParts(digest, total, merge(spans, span))
