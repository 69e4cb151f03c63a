"""Step 4 of a delivery: disk, buffer and intent must agree before the next tool runs (I1).

Whatever the editor said along the way, the text is what counts: the disk is read, then the
buffer (in memory, after the read) is compared. After the editor's own save the two may agree
on a text the editor reformatted the change to; the edit then landed, and the model is told to
read the file again before its next change.
"""

from __future__ import annotations

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import Choice, Delivery, DeliveryStatus, FileChange
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.outcomes import Saved, failed
from kesi_lsp.lsp.save import editor_reshaped


async def verify_change(
    link: EditorLink, change: FileChange, choice: Choice, saved: Saved, locale: Locale
) -> Delivery:
    """APPLIED only when the disk, then the buffer, hold the intent (or, after the editor's own
    save, the text it reformatted it to)."""
    documents = link.documents
    disk = await documents.read_disk(change.path)
    if saved is Saved.BY_EDITOR and editor_reshaped(documents, change, disk):
        note = text("lsp.edit.reformatted", locale, path=change.rel)
        return Delivery(DeliveryStatus.APPLIED, choice=choice, note=note, text=disk)
    if disk != change.after:
        return failed("lsp.edit.not_saved", locale, path=change.rel)
    doc = documents.open_document(change.path)
    if doc is not None and doc.source != change.after:
        return failed("lsp.edit.buffer_differs", locale, path=change.rel)
    return Delivery(DeliveryStatus.APPLIED, choice=choice)
