"""A run's change set: for each file, its base text and the run's hunks (design §2.9).

`FileChanges.land` adds one landed edit to a file's hunks. The edit's blocks come from a line
diff of the text just before it and the text that landed, so the user's typing before the edit
(elsewhere in the file, Day 9) is part of neither; a block that touches or overlaps one of the
same run's open hunks merges with it (one hunk, whose base is what was there before either).
Hunks of other runs that an edit rewrites are `modified` (superseded): their text is gone, and
undoing them would now undo the later run's work too.

`FileChanges.check` compares the hunks with the file's text: a pending hunk whose lines are no
longer what the agent wrote is `modified` (the user's text wins); an undone hunk whose written
lines came back (the editor's undo) is pending again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.core.changes.hunks import (
    Block,
    Hunk,
    HunkState,
    Lines,
    ends_with_break,
    moved,
    overlaps,
    placed,
)


@dataclass(frozen=True)
class Transition:
    """A hunk changed state because of the user (what the model is told next, `notes.py`).

    `kind` is "kept", "undone", "modified" or "restored" for a hunk; "uncreated" (the file the
    run created was deleted) or "undeleted" (the file the run deleted is back) for a whole file,
    whose `hunk` is None. `now` is the user's text at the hunk for "modified"."""

    kind: str
    run_id: str
    rel: str
    hunk: Hunk | None
    now: Lines = ()


@dataclass(eq=False)
class FileChanges:
    """One run's changes to one file. `base` is the text before the run's first change to it
    (None: the run created the file); `left` is what a run that created it last left there;
    `deleted`: the run deleted it (with a command) and `base` is what it held."""

    run_id: str
    path: Path
    rel: str
    base: str | None
    hunks: list[Hunk] = field(default_factory=list)
    left: str | None = None
    deleted: bool = False
    gone: bool = False  # the file is not there now (deleted or renamed by someone else)
    taken_back: bool = False  # the run's creation or deletion of the file was undone

    @property
    def created(self) -> bool:
        return self.base is None

    @property
    def base_bytes(self) -> int:
        return len(self.base.encode("utf-8", "surrogatepass")) if self.base else 0

    def open_hunks(self) -> list[Hunk]:
        return [h for h in self.hunks if h.open]

    def check(self, lines: Sequence[str], say: Callable[[Transition], None]) -> bool:
        """Settle every hunk against the file's current `lines`; True when a state changed."""
        changed = False
        for hunk in self.hunks:
            changed = self._check(hunk, lines, say) or changed
        return changed

    def _check(self, hunk: Hunk, lines: Sequence[str], say: Callable[[Transition], None]) -> bool:
        if hunk.touched and hunk.state in ("pending", "undone"):
            _find(hunk, lines)
        here = tuple(lines[hunk.start : hunk.start + len(hunk.written)])
        if hunk.open and _gained_break(hunk, here):
            _take_break(hunk, here[-1])
        if hunk.state == "pending":
            if hunk.span == len(hunk.written) and here == hunk.written:
                hunk.touched = False
                return False
            hunk.state, hunk.touched = "modified", False
            now = tuple(lines[hunk.start : hunk.end])
            if not hunk.superseded:
                say(Transition("modified", self.run_id, self.rel, hunk, now))
            return True
        if hunk.state == "undone" and hunk.touched:
            hunk.touched = False
            if hunk.span == len(hunk.written) and here == hunk.written and hunk.written:
                hunk.state = "pending"
                say(Transition("restored", self.run_id, self.rel, hunk))
                return True
        hunk.touched = False
        return False


def _find(hunk: Hunk, lines: Sequence[str]) -> None:
    """A change reached the hunk's edges, so its range was widened to cover the change: if the
    agent's lines are still there, whole, inside that range, the hunk is exactly them again."""
    size = len(hunk.written)
    if not size:
        return
    for at in range(hunk.start, max(hunk.start, hunk.end - size) + 1):
        if tuple(lines[at : at + size]) == hunk.written:
            hunk.start, hunk.span = at, size
            return


def _gained_break(hunk: Hunk, here: Lines) -> bool:
    """The hunk ended the file without a line break, and a line was added after it since: its
    last line now ends with a break, the rest is the same."""
    written = hunk.written
    if not written or not here or len(here) != len(written) or ends_with_break(written[-1]):
        return False
    return here[:-1] == written[:-1] and here[-1].rstrip("\r\n") == written[-1] != here[-1]


def _take_break(hunk: Hunk, last: str) -> None:
    """Give the hunk's last lines the break that was added after it (its base too), so undoing
    it keeps the line that follows on a line of its own."""
    brk = last[len(hunk.written[-1]) :]
    hunk.written = (*hunk.written[:-1], last)
    if hunk.base and not ends_with_break(hunk.base[-1]):
        hunk.base = (*hunk.base[:-1], hunk.base[-1] + brk)


def supersede(hunks: Iterable[Hunk], blocks: Sequence[Block]) -> None:
    """Another run's edit (`blocks`) landed: move these hunks; those it rewrote are superseded."""
    where = placed(blocks)
    for hunk in hunks:
        rewritten = any(overlaps(hunk, block) for block in blocks)
        start, stop = moved(where, hunk.start, end=False), moved(where, hunk.end, end=True)
        hunk.start = start
        if rewritten:
            hunk.span = max(0, stop - start)
            if hunk.open:
                hunk.state, hunk.superseded = "modified", True
            hunk.touched = False


@dataclass
class _Group:
    """Old lines [start, end) of the text before an edit that become one hunk."""

    start: int
    end: int
    hunks: list[Hunk] = field(default_factory=list)
    blocks: list[Block] = field(default_factory=list)


def _groups(open_hunks: Sequence[Hunk], blocks: Sequence[Block]) -> list[_Group]:
    """The edit's blocks, each with the run's open hunks it touches or overlaps, merged."""
    items: list[tuple[int, int, Hunk | Block]] = [(h.start, h.end, h) for h in open_hunks]
    items += [(b.start, b.end, b) for b in blocks]
    items.sort(key=lambda item: (item[0], item[1]))
    groups: list[_Group] = []
    for start, end, item in items:
        last = groups[-1] if groups else None
        if last is not None and start <= last.end and (last.blocks or isinstance(item, Block)):
            last.end = max(last.end, end)
        else:
            last = _Group(start, end)
            groups.append(last)
        if isinstance(item, Hunk):
            last.hunks.append(item)
        else:
            last.blocks.append(item)
    return groups


def land(
    file: FileChanges,
    before: Lines,
    after: Lines,
    blocks: Sequence[Block],
    state: HunkState,
    new_id: Callable[[], str],
) -> list[Hunk]:
    """Add an edit (`before` -> `after`, cut into `blocks`) to this run's hunks of the file;
    returns the hunks it made. The run's other hunks of the file are moved (or superseded when
    they are not open and the edit rewrote them)."""
    open_hunks = file.open_hunks()
    others = [h for h in file.hunks if not h.open]
    where = placed(blocks)
    kept: list[Hunk] = []
    made: list[Hunk] = []
    for group in _groups(open_hunks, blocks):
        if not group.blocks:
            for hunk in group.hunks:
                hunk.start = moved(where, hunk.start, end=False)
            kept.extend(group.hunks)
            continue
        start = moved(where, group.start, end=False)
        stop = moved(where, group.end, end=True)
        merged_state: HunkState = state
        if state == "kept" and any(h.state == "pending" for h in group.hunks):
            merged_state = "pending"
        hunk = Hunk(
            new_id(), start, _base_of(group, before), tuple(after[start:stop]), merged_state
        )
        made.append(hunk)
    supersede(others, blocks)
    file.hunks = sorted([*kept, *made, *others], key=lambda h: (h.start, h.span))
    return made


def _base_of(group: _Group, before: Lines) -> Lines:
    """What the group's lines held before the run touched them: the text before the edit, with
    each merged hunk's own base in place of what it wrote."""
    out: list[str] = []
    cursor = group.start
    for hunk in sorted(group.hunks, key=lambda h: h.start):
        out.extend(before[cursor : hunk.start])
        out.extend(hunk.base)
        cursor = hunk.end
    out.extend(before[cursor : group.end])
    return tuple(out)
