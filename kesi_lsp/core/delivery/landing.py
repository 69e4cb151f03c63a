"""Steps 4 and 5 of a delivery: save the change the editor holds, then verify it (design §2.7).

Save: so commands see it -- the editor's own save when it can, else the same bytes written by
the server with the core's one atomic write, and never over a disk that changed since the
delivery began; a buffer holding the user's own unsaved typing is theirs to save, so a port
may leave the change there (`Saved.IN_BUFFER`), and the model is told commands do not see it.
Verify: APPLIED only when the buffer and the disk hold the intent, or agree on the text the
editor reformatted it to while saving it (format on save, trimmed whitespace, a final
newline); the model is then told to read the file again.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.delivery.port import EditorPort, Landed, Saved, Shown
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange

log = logging.getLogger(__name__)


def failed(key: str, locale: Locale, **fields: object) -> Delivery:
    """A delivery that changed nothing (or could not finish), saying why in `key`'s words."""
    return Delivery(DeliveryStatus.FAILED, reason=text(key, locale, **fields))


async def finish(
    port: EditorPort,
    locale: Locale,
    change: FileChange,
    disk_before: str | None,
    landed: Landed | None = None,
    choice: Choice = Choice.ALLOW_ONCE,
) -> Delivery:
    """Save and verify a change already in the editor's buffer (steps 4 and 5), reporting
    nothing: also for KeSi's undo, which is delivered like an edit (design §2.9)."""
    saved = await _save(port, change, disk_before, landed or Landed())
    return await _verify(port, locale, change, choice, saved)


async def _save(
    port: EditorPort, change: FileChange, disk_before: str | None, landed: Landed
) -> Saved:
    """Bring the buffer holding `change.after` to disk: the editor's own save when it can,
    else the same bytes written by the server, never over a disk that moved meanwhile."""
    now = await port.disk(change.path)
    if port.same(now, change.after):
        return Saved.ALREADY
    if landed.written and _reshaped(port, change, now, await port.shown(change.path)):
        return Saved.BY_EDITOR  # the editor's write reformatted it
    if change.before is not None and now != disk_before:
        log.info("%s changed on disk during the delivery; not saving over it", change.rel)
        return Saved.NOT_SAVED
    saved = await port.save(change)
    if saved is not None:
        return saved
    shown = await port.shown(change.path)
    if shown.in_editor and not port.same(shown.text, change.after):
        return Saved.NOT_SAVED  # the buffer does not hold the change: nothing to write
    reason = await port.write(replace(change, before=now))
    if reason is not None:
        log.info("not saving %s ourselves: %s", change.rel, reason)
        return Saved.NOT_SAVED
    return Saved.BY_SERVER


async def _verify(
    port: EditorPort, locale: Locale, change: FileChange, choice: Choice, saved: Saved
) -> Delivery:
    """APPLIED only when the buffer and the disk hold the intent (or, after the editor's
    own save, agree on the text it reformatted it to)."""
    disk = await port.disk(change.path)
    shown = await port.shown(change.path)
    if saved is Saved.BY_EDITOR and _reshaped(port, change, disk, shown):
        note = text("delivery.reformatted", locale, path=change.rel)
        return Delivery(DeliveryStatus.APPLIED, choice=choice, note=note, text=shown.text)
    if shown.in_editor and not port.same(shown.text, change.after):
        return failed("delivery.buffer_differs", locale, path=change.rel)
    if saved is Saved.IN_BUFFER and shown.in_editor:
        note = text("delivery.left_unsaved", locale, path=change.rel)
        return Delivery(DeliveryStatus.APPLIED, choice=choice, note=note)
    if not port.same(disk, change.after):
        return failed("delivery.not_saved", locale, path=change.rel)
    return Delivery(DeliveryStatus.APPLIED, choice=choice)


def _reshaped(port: EditorPort, change: FileChange, disk: str | None, shown: Shown) -> bool:
    """The editor saved what it shows, but not `change.after`: it reformatted on save. The
    buffer back at `before` is an undo (or an edit never made), not a reformat."""
    if not shown.in_editor or disk is None or shown.text is None:
        return False
    if port.same(disk, change.after) or port.same(disk, change.before):
        return False
    return port.same(shown.text, disk)
