"""Step 2 of a delivery: put the change in the editor's buffer (design §2.7).

The edit goes through `workspace/applyEdit` so it lands on the editor's undo stack (I2):
versioned `TextDocumentEdit` for open documents, `CreateFile` + edit for new files. A client
that cannot apply edits gets the file written by the server (the core's atomic write) -- but
never an open document, which would then hold other text than its file behind the editor's
back.

Whatever the editor answers, the buffer is what counts: Neovim answers `applied: true` for an
edit it skipped as stale, so after sending, the step waits for the buffer to show the change
(`didChange`/`didOpen`). An await separates the checks before this step from the step itself,
so the buffer is checked again, in memory, right before the edit is pinned to its version.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Final

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    Choice,
    Delivery,
    DeliveryStatus,
    EditRequest,
    FileChange,
    refusal,
    write_change,
)
from kesi_lsp.lsp.documents import read_disk
from kesi_lsp.lsp.edits import EditPlan, workspace_edit
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.outcomes import Landed, failed
from kesi_lsp.lsp.wire import ClientGoneError

SETTLE_SECONDS: Final = 2.0  # how long an applied edit may take to show up as didChange
APPEAR_SECONDS: Final = 0.2  # how long a file the edit opened may take to show up as didOpen
QUIET_SECONDS: Final = 0.3  # after the editor's change, how long the buffer must stay as it is
_POLL: Final = 0.02


async def apply_change(
    link: EditorLink, change: FileChange, root: Path, locale: Locale, *, preview: bool
) -> Landed | Delivery:
    """Send (or write) `change`; `preview`: the editor's own preview is the user's review."""
    features = link.features
    doc = link.documents.open_document(change.path)
    if doc is not None and doc.source != change.before:  # changed while we awaited
        key = "lsp.edit.exists" if change.before is None else "lsp.edit.stale"
        return failed(key, locale, path=change.rel)
    creating = change.before is None
    if not features.apply_edit or (creating and not features.create_files):
        if doc is not None:
            return failed("lsp.edit.no_apply", locale, path=change.rel)
        reason = await asyncio.to_thread(write_change, change, root, locale, read=read_disk)
        return Landed() if reason is None else Delivery(DeliveryStatus.FAILED, reason=reason)
    version = doc.version if doc is not None else None
    refusal = await _send(link, change, version, locale, preview=preview)
    if refusal is not None:
        return refusal
    return await _settle(link, change, locale, version, preview=preview)


async def _send(
    link: EditorLink, change: FileChange, version: int | None, locale: Locale, *, preview: bool
) -> Delivery | None:
    """`workspace/applyEdit`; None when the editor took it, else the final outcome."""
    label = text("lsp.edit.label", locale, tool=change.tool, path=change.rel)
    plan = EditPlan(
        uri=path_to_uri(change.path),
        before=change.before or "",
        after=change.after,
        version=version,
        create=change.before is None,
        label=label,
        annotation=text("lsp.review.annotation", locale) if preview else None,
        locale=locale,
    )
    edit = workspace_edit(plan, link.codec, document_changes=link.features.document_changes)
    params = types.ApplyWorkspaceEditParams(edit=edit, label=label)
    try:
        result = await link.wire.request(types.WORKSPACE_APPLY_EDIT, params)
    except (ClientGoneError, JsonRpcException) as exc:
        if await link.documents.current_text(change.path) != change.before:  # Emacs: "version"
            return failed("lsp.edit.stale", locale, path=change.rel)
        if isinstance(exc, JsonRpcException):
            # Eglot answers the user's "n" to its own "Server wants to edit … Proceed?" with an
            # error ("User cancelled server edit"): a refusal, like an unticked preview.
            no = refusal(EditRequest, locale)
            return Delivery(DeliveryStatus.REJECTED, Choice.DENY, reason=no.message)
        return failed("lsp.edit.apply_error", locale, path=change.rel, error=str(exc))
    if getattr(result, "applied", False):
        return None
    if await link.documents.current_text(change.path) != change.before:
        return failed("lsp.edit.stale", locale, path=change.rel)
    if preview:  # the user left the change unticked in the preview: their answer is no
        no = refusal(EditRequest, locale)
        return Delivery(DeliveryStatus.REJECTED, Choice.DENY, reason=no.message)
    reason = getattr(result, "failure_reason", None) or text("lsp.edit.no_reason", locale)
    return failed("lsp.edit.refused", locale, path=change.rel, reason=reason)


async def _settle(
    link: EditorLink, change: FileChange, locale: Locale, sent: int | None, *, preview: bool
) -> Landed | Delivery:
    """Wait for the editor's didChange/didOpen to show the edit; judge the buffer.

    The edit has landed as soon as the buffer holds it. A buffer that changed (its version
    moved past `sent`, the one the edit was for) into something else is judged once it has
    stayed as it is for `QUIET_SECONDS`: editors send an applied edit in one go, so that is
    the user's answer (part of it kept in a preview) or their typing, and waiting out the
    whole `SETTLE_SECONDS` would only keep them waiting. A buffer still holding the old text
    gets the whole time (Emacs opens a file, then sends its change when idle). After the
    editor's own preview, a buffer holding part of the change is the user's answer, not a
    failure: that part is `kept`."""
    documents = link.documents
    was_open = documents.open_document(change.path) is not None
    now = time.monotonic()
    deadline = now + (SETTLE_SECONDS if was_open else APPEAR_SECONDS)
    seen: tuple[int | None, float] | None = None  # the version that moved, and since when
    while True:
        doc = documents.open_document(change.path)
        if doc is not None and doc.source == change.after:
            return Landed()
        now = time.monotonic()
        if doc is not None and not was_open:  # just opened: give didChange its time
            was_open, deadline = True, now + SETTLE_SECONDS
        if doc is not None and doc.version != sent and doc.source != (change.before or ""):
            if seen is None or seen[0] != doc.version:
                seen = (doc.version, now)
            elif now - seen[1] >= QUIET_SECONDS:
                break
        if now >= deadline:
            break
        await asyncio.sleep(_POLL)
    if doc is None:
        return Landed()  # the editor does not show us this file; the disk decides
    if doc.source == (change.before or ""):
        return failed("lsp.edit.skipped", locale, path=change.rel)
    if preview:
        return Landed(kept=doc.source)
    return failed("lsp.edit.buffer_differs", locale, path=change.rel)
