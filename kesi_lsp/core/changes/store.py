"""`ChangeSets`: every change set of one session, and what keeps them true (design §2.9).

One `ChangeSet` per run that changed files, oldest first. The store keeps each file's hunks
where they are as the text moves under them:

- a front end that sees the editor's typing (the LSP adapter) reports each change
  (`user_change`); a few comparisons per hunk, nothing else;
- the text of a file that is open in that editor is asked for when needed (`live_text`, a
  synchronous look at the buffer); for other files the store remembers what it last saw
  (`_known`) and `settle` diffs that against what is there now;
- while an agent's edit is on its way (`holding`), the editor's reports of that file are the
  edit itself and are not the user's: `record` then adds the edit and looks at the buffer.

Every change of what the user would see (hunks added, moved, settled, dropped) is told to the
`listeners` with the paths concerned (the LSP adapter republishes diagnostics and lenses).
Memory is bounded per folder (`MAX_RUNS`, `MAX_BASE_BYTES`): the oldest change sets are dropped
first, and the drop is said (`Recorded.dropped`), never silent.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from kesi_lsp.core.changes.hunks import Block, Hunk, HunkState, Lines, diff_blocks, lines_of
from kesi_lsp.core.changes.labels import RunAbout, hunk_label, run_label, standing
from kesi_lsp.core.changes.model import FileChanges, Transition, land, supersede
from kesi_lsp.core.changes.tracking import TextChange, apply_change, realign

if TYPE_CHECKING:
    from kesi_lsp.catalog import Locale
    from kesi_lsp.core.verification.verdict import Verdict

log = logging.getLogger(__name__)

MAX_RUNS: Final = 50
MAX_BASE_BYTES: Final = 20 * 1024 * 1024

Listener = Callable[[frozenset[Path]], None]


def _no_buffer(path: Path) -> str | None:
    return None


@dataclass(eq=False)
class ChangeSet:
    """What one run changed: its files (by resolved path), in the order it first changed them.
    `seq` numbers the session's runs (hunk ids start with it); `task` is the run's request;
    `about` what its row says (`core.changes.labels`); `verdict` the one it ended with."""

    run_id: str
    task: str
    seq: int
    files: dict[Path, FileChanges] = field(default_factory=dict)
    about: RunAbout | None = None
    verdict: Verdict | None = None

    def hunks(self) -> list[tuple[FileChanges, Hunk]]:
        return [(f, h) for f in self.files.values() for h in f.hunks]

    @property
    def base_bytes(self) -> int:
        return sum(f.base_bytes for f in self.files.values())

    def label(self, locale: Locale, *, verdict: bool = True) -> str:
        """Its row in words: `Fix this · shop/rates.py:8 · 20:42 · verified`."""
        now = self.standing(locale) if verdict else None
        return run_label(self.about, self.task, now, locale)

    def hunk_label(self, hunk: Hunk, locale: Locale) -> str:
        """A hunk's row, where it is and its code: `lines 8–9 · return round(x, 2)`."""
        return hunk_label(hunk, locale)

    def standing(self, locale: Locale) -> Verdict | None:
        """Its verdict now: "verified before your undo" once the user undid what was checked."""
        return standing(self.verdict, self.files.values(), locale)


@dataclass(frozen=True)
class Dropped:
    """Change sets dropped to stay within the memory limit, oldest first."""

    run_ids: tuple[str, ...]
    paths: frozenset[Path]


@dataclass(frozen=True)
class Recorded:
    """What recording a landed edit made: its hunks, and any change sets dropped for it."""

    hunks: tuple[Hunk, ...]
    dropped: Dropped | None = None


class ChangeSets:
    """The change sets of one session (one workspace folder)."""

    def __init__(self, *, max_runs: int = MAX_RUNS, max_bytes: int = MAX_BASE_BYTES) -> None:
        self.sets: list[ChangeSet] = []
        self.max_runs = max_runs
        self.max_bytes = max_bytes
        self.live_text: Callable[[Path], str | None] = _no_buffer
        self.listeners: list[Listener] = []
        self.observer: Callable[[Transition], None] | None = None
        self.dropped: dict[str, str] = {}  # run id -> task, of change sets dropped for memory
        self.dropped_seqs: dict[int, str] = {}  # their run numbers -> run id
        self.transitions: list[Transition] = []  # what the model has not been told yet
        self._files: dict[Path, list[FileChanges]] = {}
        self._known: dict[Path, str | None] = {}
        self._held: dict[Path, int] = {}
        self._split: tuple[str, Lines] | None = None  # the last text split, and its lines
        self._about: dict[str, RunAbout] = {}  # runs under way, until they end
        self._seq = 0
        self._hunk_ids = 0

    # --- lookups ---

    def tracks(self, path: Path) -> bool:
        return path in self._files

    def paths(self) -> list[Path]:
        return list(self._files)

    def files_at(self, path: Path) -> list[FileChanges]:
        """Every run's changes to `path`, oldest run first."""
        return list(self._files.get(path, ()))

    def hunks_at(self, path: Path) -> list[Hunk]:
        return [h for f in self._files.get(path, ()) for h in f.hunks]

    def by_run(self, run_id: str) -> ChangeSet | None:
        return next((s for s in self.sets if s.run_id == run_id), None)

    def newest(self) -> ChangeSet | None:
        return self.sets[-1] if self.sets else None

    @property
    def base_bytes(self) -> int:
        return sum(s.base_bytes for s in self.sets)

    def last_text(self, path: Path) -> str | None:
        """The text of `path` as last seen: the open buffer's, else what was last known."""
        live = self.live_text(path)
        return live if live is not None else self._known.get(path)

    def rel_of(self, path: Path) -> str | None:
        files = self._files.get(path)
        return files[0].rel if files else None

    # --- telling ---

    def notify(self, paths: Sequence[Path] | frozenset[Path]) -> None:
        if not paths:
            return
        changed = frozenset(paths)
        for listener in list(self.listeners):
            try:
                listener(changed)
            except Exception:  # a front end's bug must not break the bookkeeping
                log.exception("a change-set listener failed")

    def say(self, transition: Transition) -> None:
        self.transitions.append(transition)
        if self.observer is not None:  # the audit log: what the user kept or undid
            try:
                self.observer(transition)
            except Exception:
                log.exception("the change-set observer failed")

    # --- the editor's typing ---

    def user_change(self, path: Path, change: TextChange) -> None:
        """The editor changed `path` (an open buffer) by `change`: move or touch its hunks."""
        if path in self._held or path not in self._files:
            return
        if apply_change(self.hunks_at(path), change):
            self.notify((path,))

    def replaced(self, path: Path, old: str, new: str) -> None:
        """The editor replaced the whole text of `path` (a full-document sync)."""
        if path in self._held or path not in self._files:
            return
        if realign(self.hunks_at(path), lines_of(old), lines_of(new)):
            self.notify((path,))

    def opened(self, path: Path) -> None:
        """`path` was opened in the editor: its buffer is the truth from now on."""
        if path in self._files and path in self._known and path not in self._held:
            known = self._known.pop(path)
            now = self.live_text(path)
            if now is not None and known is not None and now != known:
                realign(self.hunks_at(path), lines_of(known), lines_of(now))
            self.notify((path,))

    def closed(self, path: Path, text: str | None) -> None:
        """`path` was closed in the editor showing `text`: remember it, to diff the disk later."""
        if path in self._files:
            self._known[path] = text

    @contextlib.contextmanager
    def holding(self, path: Path) -> Iterator[None]:
        """An agent's edit (or an undo) of `path` is on its way: the editor's reports of it are
        not the user's typing until it is recorded."""
        self._held[path] = self._held.get(path, 0) + 1
        try:
            yield
        finally:
            left = self._held[path] - 1
            if left:
                self._held[path] = left
            else:
                del self._held[path]

    # --- settling against the text ---

    def split(self, text: str) -> Lines:
        """`lines_of(text)`, remembered for the last text: settling, then listing or marking
        the same buffer, splits it once."""
        cached = self._split
        if cached is not None and cached[0] is text:
            return cached[1]
        lines = lines_of(text)
        self._split = (text, lines)
        return lines

    def current_lines(self, path: Path, disk: str | None) -> tuple[str, ...] | None:
        """The lines of `path` now: the open buffer's, else `disk` (what the caller just read),
        after moving the hunks from the text last seen to it. None: the file is not there."""
        live = self.live_text(path)
        if live is not None:
            return self.split(live)
        known = self._known.get(path, disk)
        if disk is not None and known is not None and known != disk:
            realign(self.hunks_at(path), lines_of(known), lines_of(disk))
        self._known[path] = disk
        return None if disk is None else self.split(disk)

    def settle(self, path: Path, disk: str | None = None) -> bool:
        """Check the hunks of `path` against its text (see `current_lines`); True when a state
        changed (the listeners are told)."""
        if path not in self._files or path in self._held:
            return False
        if self._settled_live(path):
            return False
        lines = self.current_lines(path, disk)
        changed = False
        for file in self._files[path]:
            gone = lines is None and not file.deleted
            changed = changed or gone != file.gone
            file.gone = gone
            if lines is not None and not file.deleted:
                changed = file.check(lines, self.say) or changed
        if changed:
            self.notify((path,))
        return changed

    def _settled_live(self, path: Path) -> bool:
        """An open buffer whose every change reached the hunks one by one, none of them inside
        a hunk: nothing to check, and its (big) text needs no splitting."""
        if self.live_text(path) is None:
            return False
        files = self._files[path]
        return not any(f.gone for f in files) and not any(h.touched for f in files for h in f.hunks)

    def needs_disk(self, path: Path) -> bool:
        """Whether settling `path` needs the caller to read it (it is not open in the editor)."""
        return self.live_text(path) is None

    # --- recording the agent's changes ---

    def introduce(self, run_id: str, about: RunAbout) -> None:
        self._about[run_id] = about  # what the run's row says, if it changes anything

    def judged(self, run_id: str, verdict: Verdict | None) -> None:
        """A run ended with `verdict`: kept with its change set, to weigh later undos."""
        self._about.pop(run_id, None)
        found = self.by_run(run_id)
        if found is not None:
            found.verdict = verdict

    def _set_for(self, run_id: str, task: str) -> ChangeSet:
        found = self.by_run(run_id)
        if found is None:
            self._seq += 1
            found = ChangeSet(run_id, task, self._seq, about=self._about.get(run_id))
            self.sets.append(found)
        return found

    def _new_id(self, seq: int) -> Callable[[], str]:
        def make() -> str:
            self._hunk_ids += 1
            return f"{seq}.{self._hunk_ids}"

        return make

    def record(
        self,
        run_id: str,
        task: str,
        path: Path,
        rel: str,
        before: str | None,
        landed: str,
        *,
        state: HunkState,
        blocks: Sequence[Block] | None = None,
    ) -> Recorded:
        """A run's edit of `path` landed: `before` (None: created) became `landed`. `blocks` is
        the line diff of the two when the caller computed it off the event loop."""
        old, new = lines_of(before), lines_of(landed)
        cut = list(blocks) if blocks is not None else diff_blocks(old, new)
        change_set = self._set_for(run_id, task)
        file = change_set.files.get(path)
        if file is None:
            file = FileChanges(run_id, path, rel, before)
            change_set.files[path] = file
            self._files.setdefault(path, []).append(file)
        for other in self._files[path]:
            if other is not file:
                supersede(other.hunks, cut)
        made = land(file, old, new, cut, state, self._new_id(change_set.seq))
        if file.created:
            file.left = landed
        file.gone = file.deleted = False
        self.landed_text(path, landed)
        dropped = self._enforce_limits(keep=change_set)
        self.notify((path,))
        return Recorded(tuple(made), dropped)

    def record_deletion(self, run_id: str, task: str, path: Path, rel: str, base: str) -> None:
        """A run's command deleted `path`, which held `base` (so undoing the run restores it)."""
        change_set = self._set_for(run_id, task)
        file = change_set.files.get(path)
        if file is None:
            file = FileChanges(run_id, path, rel, base)
            change_set.files[path] = file
            self._files.setdefault(path, []).append(file)
        if file.created:  # created and deleted by the same run: nothing is left to take back
            self._forget_file(change_set, file)
            return
        file.deleted, file.gone = True, False
        self._known[path] = None
        self._enforce_limits(keep=change_set)
        self.notify((path,))

    def landed_text(self, path: Path, landed: str | None) -> None:
        """The agent's edit (or an undo) left `landed` in `path` (None: no file): remember it;
        if the buffer holds something else by now (the user typed meanwhile), the hunks follow
        that typing too."""
        if path not in self._files:
            return
        live = self.live_text(path)
        if live is None:
            self._known[path] = landed
            return
        self._known.pop(path, None)
        if landed is not None and live != landed:
            realign(self.hunks_at(path), lines_of(landed), lines_of(live))

    # --- limits ---

    def _enforce_limits(self, keep: ChangeSet) -> Dropped | None:
        """Drop the oldest change sets (never `keep`) beyond MAX_RUNS or MAX_BASE_BYTES."""
        dropped: list[ChangeSet] = []
        total = self.base_bytes
        while len(self.sets) > 1 and (len(self.sets) > self.max_runs or total > self.max_bytes):
            oldest = self.sets[0] if self.sets[0] is not keep else self.sets[1]
            total -= oldest.base_bytes
            self._drop(oldest)
            dropped.append(oldest)
        if not dropped:
            return None
        paths = frozenset(p for s in dropped for p in s.files)
        self.notify(paths)
        return Dropped(tuple(s.run_id for s in dropped), paths)

    def _drop(self, change_set: ChangeSet) -> None:
        self.sets.remove(change_set)
        self.dropped[change_set.run_id] = change_set.task
        self.dropped_seqs[change_set.seq] = change_set.run_id
        for file in list(change_set.files.values()):
            self._forget_file(change_set, file)
        self.transitions = [t for t in self.transitions if t.run_id != change_set.run_id]

    def _forget_file(self, change_set: ChangeSet, file: FileChanges) -> None:
        change_set.files.pop(file.path, None)
        files = self._files.get(file.path, [])
        if file in files:
            files.remove(file)
        if not files:
            self._files.pop(file.path, None)
            self._known.pop(file.path, None)
        if not change_set.files and change_set in self.sets:
            self.sets.remove(change_set)
