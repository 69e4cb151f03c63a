"""Undoing hunks and runs: the plan, and the bookkeeping once it landed (design §2.9).

`plan_undo` works out, per file, the text now and the text with the chosen hunks' base lines
put back; a front end delivers all of it at once (the LSP adapter: one `workspace/applyEdit`,
so the editor's undo brings it back) and then calls `undone` with the files that landed.

Nothing the user wrote is ever overwritten: a `modified` hunk is left alone and named; a kept
or pending hunk whose lines are not the agent's any more is too. A file the run created is
deleted only if it still holds exactly what the run left there; a file the run deleted is
restored only if nothing is at its path now. A file someone deleted or renamed since cannot be
undone, and says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kesi_lsp.core.changes.actions import Outcome, Skip, Target
from kesi_lsp.core.changes.hunks import Hunk, Lines
from kesi_lsp.core.changes.model import FileChanges, Transition
from kesi_lsp.core.changes.store import ChangeSets
from kesi_lsp.core.changes.tracking import TextChange, apply_change


@dataclass(frozen=True)
class FileUndo:
    """One file of an undo: `before` is its text now (None: absent), `after` the text to put
    back (None: delete it). `hunks` are the hunks it restores; `files` the creations or
    deletions it takes back."""

    path: Path
    rel: str
    before: str | None
    after: str | None
    hunks: tuple[tuple[FileChanges, Hunk], ...] = ()
    files: tuple[FileChanges, ...] = ()


@dataclass(frozen=True)
class UndoPlan:
    files: tuple[FileUndo, ...]
    already: tuple[tuple[str, Hunk], ...]
    skipped: tuple[Skip, ...]

    @property
    def empty(self) -> bool:
        return not self.files


def plan_undo(changes: ChangeSets, target: Target, disk: Mapping[Path, str | None]) -> UndoPlan:
    """What undoing `target` means now. `disk` holds the text of each file that is not open
    in the editor, read just before (the caller settled them)."""
    by_path: dict[Path, list[tuple[FileChanges, Hunk]]] = {}
    for file, hunk in target.hunks:
        by_path.setdefault(file.path, []).append((file, hunk))
    whole = {f.path: f for f in target.files} if target.whole_files else {}
    for path in whole:
        by_path.setdefault(path, [])
    files: list[FileUndo] = []
    already: list[tuple[str, Hunk]] = []
    skipped: list[Skip] = []
    for path, chosen in by_path.items():
        lines = changes.current_lines(path, disk.get(path))
        text_now = None if lines is None else "".join(lines)
        planned = _plan_file(path, text_now, lines, chosen, whole.get(path), already, skipped)
        if planned is not None:
            files.append(planned)
    return UndoPlan(tuple(files), tuple(already), tuple(skipped))


def _plan_file(
    path: Path,
    text_now: str | None,
    lines: Lines | None,
    chosen: Sequence[tuple[FileChanges, Hunk]],
    whole: FileChanges | None,
    already: list[tuple[str, Hunk]],
    skipped: list[Skip],
) -> FileUndo | None:
    if whole is not None and (whole.deleted or whole.created):
        if whole.taken_back:
            return None
        return _plan_whole(path, text_now, whole, skipped)
    restoring: list[tuple[FileChanges, Hunk]] = []
    for file, hunk in chosen:
        if hunk.state == "undone":
            already.append((file.rel, hunk))
        elif hunk.state == "modified":
            skipped.append(Skip(file.rel, hunk, "changes.skip.modified"))
        elif lines is None:
            skipped.append(Skip(file.rel, hunk, "changes.skip.gone"))
        elif tuple(lines[hunk.start : hunk.start + len(hunk.written)]) != hunk.written:
            skipped.append(Skip(file.rel, hunk, "changes.skip.modified"))
        else:
            restoring.append((file, hunk))
    if not restoring or lines is None:
        return None
    restoring = _apart(restoring)
    after = list(lines)
    for _, hunk in sorted(restoring, key=lambda item: item[1].start, reverse=True):
        after[hunk.start : hunk.start + len(hunk.written)] = hunk.base
    rel = restoring[0][0].rel
    return FileUndo(path, rel, text_now, "".join(after), tuple(restoring))


def _apart(chosen: list[tuple[FileChanges, Hunk]]) -> list[tuple[FileChanges, Hunk]]:
    """Hunks in order, without one that overlaps the one before (never expected: a defence)."""
    out: list[tuple[FileChanges, Hunk]] = []
    for item in sorted(chosen, key=lambda pair: pair[1].start):
        if out and item[1].start < out[-1][1].start + len(out[-1][1].written):
            continue
        out.append(item)
    return out


def _plan_whole(
    path: Path, text_now: str | None, file: FileChanges, skipped: list[Skip]
) -> FileUndo | None:
    """Take back a run's creation (delete the file) or deletion (restore it) of `path`."""
    if file.deleted:
        if text_now is not None:
            skipped.append(Skip(file.rel, None, "changes.skip.exists_again"))
            return None
        return FileUndo(path, file.rel, None, file.base, files=(file,))
    if text_now is None:
        skipped.append(Skip(file.rel, None, "changes.skip.gone"))
        return None
    if text_now != file.left or not all(h.open for h in file.hunks):
        skipped.append(Skip(file.rel, None, "changes.skip.created_changed"))
        return None
    return FileUndo(path, file.rel, text_now, None, files=(file,))


def undone(changes: ChangeSets, plan: UndoPlan, landed: Sequence[Path]) -> Outcome:
    """The files `landed` of `plan` now hold its `after` texts: record that (the model is told
    next) and move the other hunks of those files."""
    done: list[tuple[str, Hunk | None]] = []
    for item in plan.files:
        if item.path not in landed:
            continue
        for file in item.files:
            _take_back_file(changes, file)
            done.append((file.rel, None))
        ordered = sorted(item.hunks, key=lambda pair: pair[1].start, reverse=True)
        for file, hunk in ordered:
            others = [h for h in changes.hunks_at(item.path) if h is not hunk]
            change = TextChange(
                hunk.start, 0, hunk.start + len(hunk.written), 0, "".join(hunk.base)
            )
            apply_change(others, change)
            hunk.state, hunk.span, hunk.touched = "undone", len(hunk.base), False
            changes.say(Transition("undone", file.run_id, file.rel, hunk))
            done.append((file.rel, hunk))
        changes.landed_text(item.path, item.after)
    changes.notify(frozenset(item.path for item in plan.files if item.path in landed))
    return Outcome(tuple(reversed(done)), plan.already, plan.skipped)


def _take_back_file(changes: ChangeSets, file: FileChanges) -> None:
    file.taken_back = True
    if file.created:
        for hunk in file.hunks:
            if hunk.open:
                hunk.state = "undone"
        file.gone = True
        changes.say(Transition("uncreated", file.run_id, file.rel, None))
    else:
        file.deleted = False
        changes.say(Transition("undeleted", file.run_id, file.rel, None))
