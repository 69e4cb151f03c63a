"""Step 3 of a delivery: bring the buffer to disk, so commands see the change (design §2.7).

Clients that announce `experimental.kesi.saveDocuments` save it themselves (`kesi/saveDocuments`);
for the others, or when that fails, the server writes the same bytes with the core's one atomic
write -- only over the text it found on disk, so a change that lands meanwhile is never lost.

The disk is never written over behind the editor's back: nothing is saved when the disk changed
since the delivery began (someone else wrote the file meanwhile), and the verify step then
reports the edit as not saved.

The editor may reshape the text while saving it (format on save, trimmed whitespace, a final
newline). When disk and buffer agree after its save, the edit landed (`editor_reshaped`).
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from pathlib import Path
from typing import Final

from pygls.exceptions import JsonRpcException

from kesi_lsp.catalog import Locale
from kesi_lsp.core import FileChange, write_change
from kesi_lsp.lsp.documents import Documents, read_disk
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.outcomes import Saved
from kesi_lsp.lsp.wire import ClientGoneError

log = logging.getLogger(__name__)

SAVE_DOCUMENTS: Final = "kesi/saveDocuments"
SAVE_SECONDS: Final = 10.0


async def save_change(
    link: EditorLink, change: FileChange, disk_before: str | None, root: Path, locale: Locale
) -> Saved:
    """Bring the buffer holding `change.after` to disk (see the module docstring)."""
    documents = link.documents
    now = await documents.read_disk(change.path)
    if now == change.after:
        return Saved.ALREADY
    if change.before is not None and now != disk_before:
        log.info("%s changed on disk during the delivery; not saving over it", change.rel)
        return Saved.NOT_SAVED
    if link.features.save_documents:
        saved = await _editor_save(link, change)
        if saved is not None:
            return saved
    doc = documents.open_document(change.path)
    if doc is not None and doc.source != change.after:
        return Saved.NOT_SAVED  # the buffer does not hold the change: nothing to write
    on_disk = replace(change, before=now)  # what the disk must still hold when it is replaced
    reason = await asyncio.to_thread(write_change, on_disk, root, locale, read=read_disk)
    if reason is not None:
        log.info("not saving %s ourselves: %s", change.rel, reason)
        return Saved.NOT_SAVED
    return Saved.BY_SERVER


async def _editor_save(link: EditorLink, change: FileChange) -> Saved | None:
    """Ask the editor to save; None when the server should write the bytes itself."""
    uri = path_to_uri(change.path)
    try:
        answer = await asyncio.wait_for(
            link.wire.request(SAVE_DOCUMENTS, {"uris": [uri]}), SAVE_SECONDS
        )
    except (ClientGoneError, JsonRpcException, TimeoutError) as exc:
        log.info("kesi/saveDocuments failed, saving ourselves: %s", exc)
        return None
    saved = await link.documents.read_disk(change.path, saved_by_editor=True)
    if saved == change.after or editor_reshaped(link.documents, change, saved):
        return Saved.BY_EDITOR
    if uri in _failed_uris(answer):  # e.g. VS Code: "the file on disk is newer"
        log.info("the editor could not save %s; not saving over it", change.rel)
        return Saved.NOT_SAVED
    return None


def editor_reshaped(documents: Documents, change: FileChange, disk: str | None) -> bool:
    """The editor saved what it shows, but not `change.after`: it reformatted on save."""
    doc = documents.open_document(change.path)
    if disk is None or disk in (change.after, change.before) or doc is None:
        return False  # the buffer back at `before` is an undo, not a reformat
    return doc.source == disk


def _failed_uris(answer: object) -> set[str]:
    """The URIs a `kesi/saveDocuments` answer lists as not saved (VS Code sends strings,
    Neovim `{uri, message}` objects)."""
    failed = answer.get("failed") if isinstance(answer, dict) else None
    uris: set[str] = set()
    for item in failed if isinstance(failed, list) else []:
        uri = item.get("uri") if isinstance(item, dict) else item
        if isinstance(uri, str):
            uris.add(uri)
    return uris
