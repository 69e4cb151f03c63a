"""Keeping hunks where they are while the user types (design §2.9).

An editor reports each change as a range of the text before it and the text put there (LSP's
incremental `didChange`). A change wholly above a hunk moves it by the lines it added or
removed; a change below it leaves it alone; a change that reaches into it marks it `touched`,
and the text decides later (`FileChanges.check`) whether it is still the agent's. The user's
typing outside a hunk is therefore never counted as the agent's, and it costs a few comparisons
per hunk: no text is split or diffed on a keystroke.

Columns are only compared with 0 (the start of a line), so they may be in any unit (LSP's
UTF-16 code units included). When the old text is not known change by change (a file changed
on disk, a whole-document sync), `realign` diffs the two texts once instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kesi_lsp.core.changes.hunks import Hunk, diff_blocks, ends_with_break, moved, overlaps, placed


@dataclass(frozen=True)
class TextChange:
    """Text between (start_line, start_col) and (end_line, end_col) replaced by `text`."""

    start_line: int
    start_col: int
    end_line: int
    end_col: int
    text: str

    @property
    def breaks(self) -> int:
        """Line breaks in `text` (CRLF counts once)."""
        value = self.text
        return value.count("\n") + value.count("\r") - value.count("\r\n")

    @property
    def delta(self) -> int:
        """Lines added (negative: removed) by the change."""
        return self.breaks - (self.end_line - self.start_line)


def _above(hunk: Hunk, change: TextChange) -> bool:
    """The change ends before the hunk's first line and leaves that line whole."""
    if change.end_line < hunk.start:
        return True
    if change.end_line > hunk.start or change.end_col != 0:
        return False
    # It ends exactly where the hunk begins: fine unless it glues text onto its first line.
    if change.text:
        return ends_with_break(change.text)
    return change.start_col == 0 or change.start_line == change.end_line


def _below(hunk: Hunk, change: TextChange) -> bool:
    """The change starts after the hunk's last line (or appends a new line after its end)."""
    if hunk.span == 0:
        return change.start_line >= hunk.start
    if not hunk.open_end:
        return change.start_line >= hunk.end
    last = hunk.end - 1
    if change.start_line > last:
        return True
    # The hunk ends the file without a line break: only a new line added after it is outside.
    return (
        change.start_line == last
        and change.start_col > 0
        and change.end_line == last
        and change.text.startswith(("\n", "\r"))
        and change.end_col == change.start_col
    )


def apply_change(hunks: Iterable[Hunk], change: TextChange) -> bool:
    """Move or touch `hunks` (one file's, any runs) for one editor change; True when any moved
    or was touched."""
    moved = False
    delta = change.delta
    for hunk in hunks:
        if _above(hunk, change):
            if delta:
                hunk.start += delta
                moved = True
        elif not _below(hunk, change):
            _touch(hunk, change, delta)
            moved = True
    return moved


def _touch(hunk: Hunk, change: TextChange, delta: int) -> None:
    """The change reaches into the hunk: cover what it left there, and check it later."""
    hunk.touched = True
    inside = change.start_line >= hunk.start and (
        change.end_line < hunk.end or (change.end_line == hunk.end and change.end_col == 0)
    )
    if inside:
        hunk.span = max(0, hunk.span + delta)
        return
    start = min(hunk.start, change.start_line)
    end = max(hunk.end + delta, change.start_line + change.breaks + 1)
    hunk.start, hunk.span = start, max(0, end - start)


def realign(hunks: Iterable[Hunk], old: Sequence[str], new: Sequence[str]) -> bool:
    """Move `hunks` from the lines `old` to the lines `new` (one diff); those the difference
    reaches into are touched and cover what replaced them. True when any moved or was touched."""
    blocks = diff_blocks(old, new)
    if not blocks:
        return False
    where = placed(blocks)
    changed = False
    for hunk in hunks:
        start, stop = moved(where, hunk.start, end=False), moved(where, hunk.end, end=True)
        if any(overlaps(hunk, block) for block in blocks):
            hunk.touched, hunk.span = True, max(0, stop - start)
            changed = True
        changed = changed or start != hunk.start
        hunk.start = start
    return changed
