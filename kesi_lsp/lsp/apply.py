"""Applying a change in the editor's buffer, the LSP way (design §2.7, the port's `apply`).

The edit goes through `workspace/applyEdit` so it lands on the editor's undo stack (I2):
versioned `TextDocumentEdit` for open documents, `CreateFile` + edit for new files. A client
that cannot apply edits gets the file written by the server (the core's atomic write) -- but
never an open document, which would then hold other text than its file behind the editor's
back.

Whatever the editor answers, the buffer is what counts (`apply_edit.settle`). An await
separates the pipeline's checks from this step, so the buffer is checked again, in memory,
right before the edit is pinned to its version.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    Choice,
    Delivery,
    DeliveryStatus,
    EditRequest,
    FileChange,
    Landed,
    delivery_failed,
    refusal,
    stale_words,
    write_change,
)
from kesi_lsp.lsp.apply_edit import EditAnswer, Expected, send_edit, settle
from kesi_lsp.lsp.documents import read_disk
from kesi_lsp.lsp.edits import EditPlan, workspace_edit
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.link import EditorLink


async def apply_change(
    link: EditorLink, change: FileChange, root: Path, locale: Locale, *, preview: bool
) -> Landed | Delivery:
    """Send (or write) `change`; `preview`: the editor's own preview is the user's review."""
    features = link.features
    doc = link.documents.open_document(change.path)
    if doc is not None and doc.source != change.before:  # changed while we awaited
        return Delivery(DeliveryStatus.FAILED, reason=stale_words(change, locale, reviewed=False))
    creating = change.before is None
    if not features.apply_edit or (creating and not features.create_files):
        if doc is not None:
            return delivery_failed("lsp.edit.no_apply", locale, path=change.rel)
        reason = await asyncio.to_thread(write_change, change, root, locale, read=read_disk)
        return Landed() if reason is None else Delivery(DeliveryStatus.FAILED, reason=reason)
    version = doc.version if doc is not None else None
    label = text("lsp.edit.label", locale, tool=change.tool, path=change.rel)
    plan = EditPlan(
        uri=path_to_uri(change.path),
        before=change.before or "",
        after=change.after,
        version=version,
        create=creating,
        label=label,
        annotation=text("lsp.review.annotation", locale) if preview else None,
        locale=locale,
    )
    edit = workspace_edit(plan, link.codec, document_changes=features.document_changes)
    answer = await send_edit(link, edit, label)
    if not answer.applied:
        return await _not_applied(link, change, answer, locale, preview=preview)
    await settle(link.documents, [Expected(change.path, change.before, change.after, version)])
    return _judge(link, change, locale, preview=preview)


async def _not_applied(
    link: EditorLink, change: FileChange, answer: EditAnswer, locale: Locale, *, preview: bool
) -> Delivery:
    """The editor did not take the edit: the user typed (Emacs answers "version" errors), the
    user said no (an unticked preview, Eglot's own question), or it failed."""
    if await link.documents.current_text(change.path) != change.before:
        return delivery_failed("delivery.stale", locale, path=change.rel)
    if answer.declined or (preview and answer.error is None):
        no = refusal(EditRequest, locale)
        return Delivery(DeliveryStatus.REJECTED, Choice.DENY, reason=no.message)
    if answer.error is not None:
        return delivery_failed("lsp.edit.apply_error", locale, path=change.rel, error=answer.error)
    reason = answer.reason or text("lsp.edit.no_reason", locale)
    return delivery_failed("lsp.edit.refused", locale, path=change.rel, reason=reason)


def _judge(
    link: EditorLink, change: FileChange, locale: Locale, *, preview: bool
) -> Landed | Delivery:
    """What the buffer shows once settled. After the editor's own preview, a buffer holding part
    of the change is the user's answer, not a failure: that part is `kept`."""
    doc = link.documents.open_document(change.path)
    if doc is None or doc.source == change.after:
        return Landed()  # (not shown to us: the disk decides)
    if doc.source == (change.before or ""):
        return delivery_failed("lsp.edit.skipped", locale, path=change.rel)
    if preview:
        return Landed(kept=doc.source)
    return delivery_failed("delivery.buffer_differs", locale, path=change.rel)
