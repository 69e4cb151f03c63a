"""Deliver an undo of KeSi's changes through the editor (design §2.9): one `workspace/applyEdit`.

All files of an undo go in one edit, so the editor's own undo (`u`, Ctrl+Z) brings them back at
once: versioned `TextDocumentEdit`s for open documents, `DeleteFile` for a file the run created,
`CreateFile` + the text for one it deleted (when the client supports those resource operations;
otherwise the server does that part on disk, never for a document open in the editor). Then, as
for an edit (§2.7), the buffers are given time to show it, saved, and checked: a file counts as
undone only when disk and buffer hold the restored text (or it is gone, for a deletion).

Each file's text is checked again right before sending: text that changed since the plan was
made is left alone (the user typed in the meantime), never overwritten.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    DeliveryStatus,
    FileChange,
    FileUndo,
    UndoPlan,
    finish_delivery,
    write_change,
)
from kesi_lsp.lsp.apply_edit import Expected, send_edit, settle
from kesi_lsp.lsp.documents import read_disk, read_disk_or_none
from kesi_lsp.lsp.editor_port import LspPort
from kesi_lsp.lsp.edits import text_edits
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.link import EditorLink

DocumentChange = types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile


@dataclass
class Restored:
    """What the undo did: the files that now hold their restored text, and the reason each
    other file was left as it was."""

    landed: list[Path] = field(default_factory=list)
    failed: dict[Path, str] = field(default_factory=dict)
    rels: dict[Path, str] = field(default_factory=dict)


def _by_editor(link: EditorLink, item: FileUndo) -> bool:
    """Whether the editor, not the server, applies this file's part of the undo."""
    features = link.features
    if not features.apply_edit:
        return False
    if item.after is None:
        return features.delete_files
    if item.before is None:
        return features.create_files
    return True


def _document_changes(link: EditorLink, item: FileUndo) -> list[DocumentChange]:
    uri = _uri(link, item.path)
    if item.after is None:
        options = types.DeleteFileOptions(ignore_if_not_exists=True)
        return [types.DeleteFile(uri=uri, options=options)]
    doc = link.documents.open_document(item.path)
    version = doc.version if doc is not None else None
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    edits = list(text_edits(item.before or "", item.after, link.codec))
    changes: list[DocumentChange] = []
    if item.before is None:
        create = types.CreateFileOptions(overwrite=False, ignore_if_exists=False)
        changes.append(types.CreateFile(uri=uri, options=create))
    changes.append(types.TextDocumentEdit(text_document=identifier, edits=list(edits)))
    return changes


def _uri(link: EditorLink, path: Path) -> str:
    doc = link.documents.open_document(path)
    return doc.uri if doc is not None else path_to_uri(path)


def workspace_edit(link: EditorLink, items: list[FileUndo]) -> types.WorkspaceEdit:
    """The one edit carrying every file the editor applies (see `_by_editor`)."""
    if link.features.document_changes:
        changes: list[DocumentChange] = []
        for item in items:
            changes.extend(_document_changes(link, item))
        return types.WorkspaceEdit(document_changes=changes)
    plain = {
        _uri(link, i.path): list(text_edits(i.before or "", i.after or "", link.codec))
        for i in items
    }
    return types.WorkspaceEdit(changes=plain)


async def restore(link: EditorLink, plan: UndoPlan, root: Path, locale: Locale) -> Restored:
    """Apply `plan` (the caller holds its files in the change sets); see the module docstring."""
    done = Restored(rels={item.path: item.rel for item in plan.files})
    ready: list[FileUndo] = []
    for item in plan.files:
        if await link.documents.current_text(item.path) != item.before:
            done.failed[item.path] = text("changes.undo.changed", locale)
        else:
            ready.append(item)
    disk_before = {i.path: await asyncio.to_thread(read_disk_or_none, i.path) for i in ready}
    editor = [i for i in ready if _by_editor(link, i)]
    if editor:
        refused = await _send(link, editor, locale)
        if refused is not None:
            done.failed.update({i.path: refused for i in editor})
            editor = []
    for item in ready:
        if item.path in done.failed:
            continue
        if item in editor:
            reason = await _finish(link, item, disk_before[item.path], root, locale)
        else:
            reason = await _by_server(link, item, root, locale)
        if reason is None:
            done.landed.append(item.path)
        else:
            done.failed[item.path] = reason
    return done


async def _send(link: EditorLink, items: list[FileUndo], locale: Locale) -> str | None:
    """`workspace/applyEdit`, then its settling; None when the editor applied it, else why
    not."""
    names = ", ".join(i.rel for i in items)
    label = text("changes.undo_label", locale, what=names)
    expected = [Expected(i.path, i.before, i.after, _version(link, i.path)) for i in items]
    answer = await send_edit(link, workspace_edit(link, items), label)
    if answer.error is not None:
        return text("changes.undo.apply_error", locale, error=answer.error)
    if not answer.applied:
        reason = answer.reason or text("lsp.edit.no_reason", locale)
        return text("changes.undo.refused", locale, reason=reason)
    await settle(link.documents, expected)
    return None


def _version(link: EditorLink, path: Path) -> int | None:
    doc = link.documents.open_document(path)
    return doc.version if doc is not None else None


async def _finish(
    link: EditorLink, item: FileUndo, disk_before: str | None, root: Path, locale: Locale
) -> str | None:
    """Save and check one file the editor changed; None when it holds the restored text."""
    if item.after is None:
        gone = not await asyncio.to_thread(item.path.exists)
        return None if gone else text("changes.undo.not_deleted", locale, path=item.rel)
    doc = link.documents.open_document(item.path)
    if doc is None and disk_before is not None and disk_before != item.after:
        # The editor changed a file it does not show us: its text is on disk or nowhere.
        now = await link.documents.read_disk(item.path)
        return None if now == item.after else text("changes.undo.not_saved", locale, path=item.rel)
    change = FileChange("undo", item.path, item.rel, item.before, item.after)
    port = LspPort(link, root, locale, on_applied=lambda change: None)
    outcome = await finish_delivery(port, locale, change, disk_before)
    if outcome.status is DeliveryStatus.APPLIED:
        return None
    return outcome.reason or text("changes.undo.not_saved", locale, path=item.rel)


async def _by_server(link: EditorLink, item: FileUndo, root: Path, locale: Locale) -> str | None:
    """The part of the undo the editor cannot do (a create or delete it lacks, or no applyEdit
    at all): the server does it on disk, never under a document open in the editor."""
    if link.documents.open_document(item.path) is not None:
        return text("lsp.edit.no_apply", locale, path=item.rel)
    if item.after is None:
        return await asyncio.to_thread(_delete_if, item, locale)
    change = FileChange("undo", item.path, item.rel, item.before, item.after)
    return await asyncio.to_thread(write_change, change, root, locale, read=read_disk)


def _delete_if(item: FileUndo, locale: Locale) -> str | None:
    """Delete the file the run created, if it still holds exactly what the plan saw."""
    try:
        if read_disk(item.path) != item.before:
            return text("changes.undo.changed", locale)
        item.path.unlink()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        return text("changes.undo.apply_error", locale, error=str(exc))
    return None
