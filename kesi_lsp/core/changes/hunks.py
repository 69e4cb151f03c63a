"""One hunk of a change set, and the line diff that cuts an edit into hunks (design §2.9).

A hunk is a block of lines the agent replaced: the lines it found (`base`) and the lines it wrote
(`written`), and where that block is now (`start`, `span`) in the file's current text. Lines keep
their endings (LF, CRLF, a lone CR, or none for a last line without one), so restoring a hunk
gives back the exact bytes. Line numbers are 0-based, as in LSP.

The state says what the user made of it: `pending` (landed, not looked at), `kept`, `undone`,
`modified` (the text at the hunk is no longer what the agent wrote: the user typed inside it, or a
later run rewrote it; either way that text wins and KeSi never overwrites it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from kesi_lsp.core.diff import split_lines

HunkState = Literal["pending", "kept", "undone", "modified"]
HUNK_STATES: Final[tuple[HunkState, ...]] = ("pending", "kept", "undone", "modified")
Lines = tuple[str, ...]


def lines_of(text: str | None) -> Lines:
    """`text` cut into lines with their endings (LF, CRLF, lone CR); None is no lines."""
    return tuple(split_lines(text)) if text else ()


def ends_with_break(text: str) -> bool:
    return text.endswith(("\n", "\r"))


@dataclass(frozen=True)
class Block:
    """Old lines [start, end) replaced by `lines` (a diff opcode that is not `equal`)."""

    start: int
    end: int
    lines: Lines


def diff_blocks(old: Sequence[str], new: Sequence[str]) -> list[Block]:
    """The changed line blocks from `old` to `new`, in order, not overlapping."""
    import difflib  # ~25 ms of import the server's start-up does not need (benchmark 4)

    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [
        Block(i1, i2, tuple(new[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def placed(blocks: Sequence[Block]) -> list[tuple[Block, int]]:
    """Each block with the line where its new lines start in the new text."""
    out, offset = [], 0
    for block in blocks:
        out.append((block, block.start + offset))
        offset += len(block.lines) - (block.end - block.start)
    return out


def moved(blocks: Sequence[tuple[Block, int]], line: int, *, end: bool) -> int:
    """Where old line `line` is after `blocks`: a first line (`end` False) inside a replaced
    block goes to the block's start, an exclusive end to its end; lines inserted right at an end
    stay out of it, right at a first line they come above it."""
    offset = 0
    for block, at in blocks:
        if block.start < line < block.end:
            return at + len(block.lines) if end else at
        if block.start > line or (end and block.start == line) or (block.end > line):
            break
        offset = at + len(block.lines) - block.end
    return line + offset


def overlaps(hunk: Hunk, block: Block) -> bool:
    """Whether `block` rewrites lines of `hunk` (insertions at its edges do not)."""
    if block.start == block.end:
        return hunk.start < block.start < hunk.end
    if hunk.span == 0:
        return block.start < hunk.start < block.end
    return block.start < hunk.end and block.end > hunk.start


@dataclass(eq=False)
class Hunk:
    """A block of lines one run changed in one file; mutable, owned by its `FileChanges`.

    `start`/`span`: the lines it covers in the current text. For `pending` and `kept` hunks that
    is the written lines, for `undone` ones the base lines; a `modified` hunk covers the user's
    text that replaced them. `touched`: a change of unknown effect reached it since it was last
    checked against the text (`FileChanges.check`). `superseded`: a later run rewrote it (so it
    is `modified`, but not by the user: the model is not told the user changed it).
    """

    id: str
    start: int
    base: Lines
    written: Lines
    state: HunkState = "pending"
    span: int = -1
    touched: bool = False
    superseded: bool = False

    def __post_init__(self) -> None:
        if self.span < 0:
            self.span = len(self.written)

    @property
    def end(self) -> int:
        return self.start + self.span

    @property
    def open(self) -> bool:
        """Pending or kept: the agent's text is (believed to be) there and can be undone."""
        return self.state in ("pending", "kept")

    @property
    def shown(self) -> Lines:
        """The lines the hunk should cover now, when nobody changed it."""
        return self.base if self.state == "undone" else self.written

    @property
    def open_end(self) -> bool:
        """It covers the file's last line, which has no line break."""
        shown = self.shown
        return self.span > 0 and bool(shown) and not ends_with_break(shown[-1])

    @property
    def added(self) -> int:
        return len(self.written)

    @property
    def removed(self) -> int:
        return len(self.base)
