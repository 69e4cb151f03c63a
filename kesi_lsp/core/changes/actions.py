"""What a keep or undo acts on, and keeping (design §2.9: `kesi.keep`, `kesi.undo`).

A request names a run, a file, a hunk, or nothing; `select` turns that into the hunks concerned,
or a `Refusal` that says why not (an unknown id, a change set dropped for the memory limit,
nothing to act on). Acting twice is harmless: a hunk already kept or undone is reported as such
(`Outcome.already`), so a second editor window or a stale lens never does anything twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.changes.hunks import Hunk
from kesi_lsp.core.changes.model import FileChanges, Transition
from kesi_lsp.core.changes.store import ChangeSet, ChangeSets


@dataclass(frozen=True)
class Refusal:
    """Why a request cannot act: a catalog key, its fields, and a short reason code for the
    wire (`unknownRun`, `droppedRun`, ...)."""

    key: str
    reason: str
    fields: Mapping[str, object] = field(default_factory=dict)

    def message(self, locale: Locale) -> str:
        return text(self.key, locale, **self.fields)


@dataclass(frozen=True)
class Target:
    """The hunks a request names (each with its file), and whether it names whole runs' files
    (`kesi.undoRun`: a file a run created or deleted is taken back as a file)."""

    hunks: tuple[tuple[FileChanges, Hunk], ...]
    files: tuple[FileChanges, ...] = ()
    whole_files: bool = False


@dataclass(frozen=True)
class Skip:
    """A hunk (or a whole file, `hunk` None) left alone, and why (a catalog key)."""

    rel: str
    hunk: Hunk | None
    key: str


@dataclass(frozen=True)
class Outcome:
    """What a keep or undo did: `done` now, `already` in that state, `skipped` left alone."""

    done: tuple[tuple[str, Hunk | None], ...] = ()
    already: tuple[tuple[str, Hunk], ...] = ()
    skipped: tuple[Skip, ...] = ()


def _find_hunk(changes: ChangeSets, hunk_id: str) -> tuple[ChangeSet, FileChanges, Hunk] | None:
    for change_set in changes.sets:
        for file, hunk in change_set.hunks():
            if hunk.id == hunk_id:
                return change_set, file, hunk
    return None


def _dropped_hunk(changes: ChangeSets, hunk_id: str) -> bool:
    seq, _, _ = hunk_id.partition(".")
    return seq.isdigit() and int(seq) in changes.dropped_seqs


def _run(changes: ChangeSets, run_id: str) -> ChangeSet | Refusal:
    found = changes.by_run(run_id)
    if found is not None:
        return found
    if run_id in changes.dropped:
        return Refusal("changes.dropped_run", "droppedRun", {"run": run_id})
    return Refusal("changes.unknown_run", "unknownRun", {"run": run_id})


def select(
    changes: ChangeSets,
    *,
    run_id: str | None = None,
    path: Path | None = None,
    hunk_id: str | None = None,
) -> Target | Refusal:
    """The hunk named by `hunk_id`, else the hunks of `run_id` (in `path` when given), else of
    `path` across runs, else of the newest run. Anything wider than one hunk takes whole files:
    undoing it deletes a file the run created and restores one it deleted."""
    if hunk_id is not None:
        found = _find_hunk(changes, hunk_id)
        if found is None:
            if _dropped_hunk(changes, hunk_id):
                return Refusal("changes.dropped_hunk", "droppedRun", {"hunk": hunk_id})
            return Refusal("changes.unknown_hunk", "unknownHunk", {"hunk": hunk_id})
        change_set, file, hunk = found
        if run_id is not None and change_set.run_id != run_id:
            return Refusal("changes.unknown_hunk", "unknownHunk", {"hunk": hunk_id})
        return Target(((file, hunk),))
    if run_id is not None:
        picked = _run(changes, run_id)
        if isinstance(picked, Refusal):
            return picked
        sets = [picked]
    elif path is not None:
        sets = [s for s in changes.sets if path in s.files]
    else:
        newest = changes.newest()
        if newest is None:
            return Refusal("changes.none", "noChanges")
        sets = [newest]
    files = [f for s in sets for f in s.files.values() if path is None or f.path == path]
    if not files:
        return Refusal("changes.none_here", "noChanges")
    hunks = tuple((f, h) for f in files for h in f.hunks)
    return Target(hunks, tuple(files), whole_files=True)


def keep(changes: ChangeSets, target: Target) -> Outcome:
    """Keep the pending hunks of `target`: the user looked and agrees (the model is told).
    The caller settles the files first (`ChangeSets.settle`), so a hunk the user typed over is
    `modified` by now and is not kept as the agent's."""
    done: list[tuple[str, Hunk | None]] = []
    already: list[tuple[str, Hunk]] = []
    skipped: list[Skip] = []
    touched: set[Path] = set()
    for file, hunk in target.hunks:
        if hunk.state == "pending":
            hunk.state = "kept"
            changes.say(Transition("kept", file.run_id, file.rel, hunk))
            done.append((file.rel, hunk))
            touched.add(file.path)
        elif hunk.state == "kept":
            already.append((file.rel, hunk))
        elif hunk.state == "undone":
            skipped.append(Skip(file.rel, hunk, "changes.skip.undone"))
        else:
            skipped.append(Skip(file.rel, hunk, "changes.skip.modified_keep"))
    changes.notify(frozenset(touched))
    return Outcome(tuple(done), tuple(already), tuple(skipped))
