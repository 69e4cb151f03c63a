"""Code actions on KeSi's changes (design §2.9), for every client, code lenses or not (Helix).

Inside a pending hunk: "KeSi: keep this change" and "KeSi: undo this change" (quickfixes of the
hunk's `KeSi` diagnostic); anywhere in a file the newest run changed: "KeSi: undo the last run".
Answering is instant: the buffer is compared in memory, nothing is read from disk.
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import FileChanges, Session
from kesi_lsp.lsp.change_marks import KEEP, SOURCE, UNDO, hunk_at

UNDO_RUN = "kesi.undoRun"


def _last_line(rng: types.Range) -> int:
    """The last line a range really covers (an end at column 0 stops on the line above)."""
    end = rng.end
    if end.character == 0 and end.line > rng.start.line:
        return end.line - 1
    return end.line


def _ours(diagnostics: list[types.Diagnostic], hunk_id: str) -> list[types.Diagnostic]:
    found = []
    for item in diagnostics:
        data = item.data if isinstance(item.data, dict) else {}
        if item.source == SOURCE and data.get("hunkId") == hunk_id:
            found.append(item)
    return found


def change_actions(
    session: Session, path: Path, params: types.CodeActionParams, locale: Locale
) -> list[types.CodeAction]:
    """The keep / undo actions for `params.range` in `path`."""
    changes = session.changes
    if not changes.tracks(path):
        return []
    if not changes.needs_disk(path):
        changes.settle(path)
    files: list[FileChanges] = changes.files_at(path)
    uri = params.text_document.uri
    actions: list[types.CodeAction] = []
    found = hunk_at(files, params.range.start.line, _last_line(params.range))
    if found is not None:
        _, hunk = found
        ours = _ours(list(params.context.diagnostics), hunk.id) or None
        argument = {"uri": uri, "hunkId": hunk.id}
        for key, command in (("changes.action.keep", KEEP), ("changes.action.undo", UNDO)):
            title = text(key, locale)
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=ours,
                    command=types.Command(title=title, command=command, arguments=[argument]),
                )
            )
    newest = changes.newest()
    if newest is not None and path in newest.files and _undoable(newest.files[path]):
        title = text("changes.action.undo_run", locale)
        actions.append(
            types.CodeAction(
                title=title,
                kind=types.CodeActionKind.RefactorRewrite,
                command=types.Command(
                    title=title, command=UNDO_RUN, arguments=[{"uri": uri, "runId": newest.run_id}]
                ),
            )
        )
    return actions


def _undoable(file: FileChanges) -> bool:
    return any(h.open for h in file.hunks) or (file.deleted and not file.taken_back)
