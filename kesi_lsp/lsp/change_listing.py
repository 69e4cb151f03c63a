"""What `kesi.changes` answers (design §2.9): runs, newest first, their files and hunks.

`{runs: [{runId, task, label, verified, files: [{uri, path, created, deleted, takenBack, gone,
hunks: [{id, range, state, added, removed, lines, label, base}]}]}]}` (`lines`: how many lines
the hunk covers now; 0 is a point where lines were removed; `base`: the lines it replaced),
plus the same as text for editors without a KeSi client. A run's `label` and a hunk's are the
server's words for their rows (issue 32: "Fix this · shop/rates.py:8 · 20:42 · verified",
"lines 8–9 · return x"), and `verified` the run's verdict as it stands after the user's undos.
The same hunks, only the pending ones of a file, are what `kesi/hunks` carries (`pending_views`)
to a client that draws them itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from pygls.workspace import PositionCodec

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import ChangeSet, ChangeSets, FileChanges, Hunk, lines_of
from kesi_lsp.lsp.change_marks import hunk_range, pending
from kesi_lsp.lsp.contract import ChangedFile, ChangeRun, HunkView
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.stream import verdict_view

MAX_TASK: Final = 120


def task_title(task: str) -> str:
    """The first line of a run's task, clipped: what the run was asked, at a glance."""
    first = next((line.strip() for line in task.splitlines() if line.strip()), "")
    return first if len(first) <= MAX_TASK else first[: MAX_TASK - 1] + "…"


def _file_view(
    link: EditorLink, run: ChangeSet, file: FileChanges, current: str | None, locale: Locale
) -> ChangedFile:
    lines = lines_of(current)
    doc = link.documents.open_document(file.path)
    return ChangedFile(
        uri=doc.uri if doc is not None else path_to_uri(file.path),
        path=file.rel,
        created=file.created,
        deleted=file.deleted,
        taken_back=file.taken_back,
        gone=file.gone,
        hunks=[hunk_view(run, hunk, link.codec, lines, locale) for hunk in file.hunks],
    )


def hunk_view(
    run: ChangeSet, hunk: Hunk, codec: PositionCodec, lines: Sequence[str], locale: Locale
) -> HunkView:
    """One hunk as the wire shows it, its range in the file's current `lines`."""
    return HunkView(
        id=hunk.id,
        range=hunk_range(hunk, codec, lines),
        state=hunk.state,
        added=hunk.added,
        removed=hunk.removed,
        lines=hunk.span,
        label=run.hunk_label(hunk, locale),
        base="".join(hunk.base),
    )


def pending_views(
    changes: Sequence[ChangeSets], path: Path, current: str, codec: PositionCodec, locale: Locale
) -> list[HunkView]:
    """The pending hunks of `path` in every run of `changes`, top to bottom (`kesi/hunks`)."""
    lines = lines_of(current)
    runs = {run.run_id: run for each in changes for run in each.sets}
    files = [file for each in changes for file in each.files_at(path) if file.run_id in runs]
    return [hunk_view(runs[f.run_id], hunk, codec, lines, locale) for f, hunk in pending(files)]


def _shown(change_set: ChangeSet, path: Path | None) -> list[FileChanges]:
    return [f for f in change_set.files.values() if path is None or f.path == path]


def listing(
    link: EditorLink,
    changes: ChangeSets,
    texts: Mapping[Path, str | None],
    path: Path | None,
    locale: Locale,
) -> list[ChangeRun]:
    runs = []
    for change_set in reversed(changes.sets):
        files = _shown(change_set, path)
        if not files:
            continue
        runs.append(
            ChangeRun(
                run_id=change_set.run_id,
                task=task_title(change_set.task),
                files=[_file_view(link, change_set, f, texts.get(f.path), locale) for f in files],
                label=change_set.label(locale),
                verified=verdict_view(change_set.standing(locale), locale),
            )
        )
    return runs


def listing_lines(changes: ChangeSets, path: Path | None, locale: Locale) -> list[str]:
    """The listing as text: a run per paragraph, a hunk per line."""
    lines: list[str] = []
    for change_set in reversed(changes.sets):
        files = _shown(change_set, path)
        if not files:
            continue
        lines.append(text("changes.list.run", locale, label=change_set.label(locale)))
        for file in files:
            if file.deleted or file.created:
                key = "changes.list.deleted" if file.deleted else "changes.list.created"
                lines.append(text(key, locale, path=file.rel))
            for hunk in file.hunks:
                item = text(
                    "changes.item", locale, path=file.rel, where=change_set.hunk_label(hunk, locale)
                )
                state = text(f"changes.state.{hunk.state}", locale)
                lines.append(text("changes.list.hunk", locale, item=item, state=state))
    if not lines:
        return [text("changes.list.none", locale)]
    return [text("changes.list.head", locale), *lines]
