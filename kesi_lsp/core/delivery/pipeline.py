"""The one delivery pipeline: check, review, apply, save, verify (design §2.7).

The core hands over a change it has fully checked against the text the user sees. Each front
end supplies only its transport (`EditorPort`); the rules are here, once:

1. fresh? The text the user sees must still be the change's `before`, and an open buffer must
   not have drifted from its disk (`Drift`): saving an edit there would silently undo a
   command's change, or the user's. Checked before the review and again after it (I4): the user
   may type while they look;
2. review, unless the file has a session grant: through the approver (`consult`, the core's
   one question seam) or the editor's own preview, which is part of applying. The user may
   accept only part of the change: that part is their answer, and the model is told exactly
   what landed;
3. apply (the port): the edit lands on the editor's undo stack (I2), or on disk;
4. save: so commands see it, never over a disk that changed since the delivery began;
5. verify: disk, buffer and intent must agree before APPLIED is returned (I1). Whatever the
   editor answered, the text is what counts: Neovim answers `applied: true` for an edit it
   skipped as stale, an ACP client may answer a write it did not make.

The editor may reshape the text while saving it (format on save): when disk and buffer agree on
that text after the editor's own save, the edit landed and the model is told the file was
reformatted. A rejected or failed delivery changed nothing anywhere (I3), and its `reason` is
the sentence the model reads.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Approver, Choice, EditRequest, Refused, consult
from kesi_lsp.core.changes.notes import partly_kept
from kesi_lsp.core.delivery.landing import failed, finish
from kesi_lsp.core.delivery.port import Drift, EditorPort, Landed, Route
from kesi_lsp.core.diff import unified_diff
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange

_DRIFT = {
    Drift.OUTDATED: "delivery.disk_moved",  # clean buffer: reload it
    Drift.CONFLICTED: "delivery.disk_conflict",  # unsaved changes: the user must choose
}


def stale_words(change: FileChange, locale: Locale, *, reviewed: bool) -> str:
    """What an editor's model is told when the text it changed moved under it."""
    if change.before is None:
        return text("delivery.exists", locale, path=change.rel)
    key = "delivery.stale_review" if reviewed else "delivery.stale"
    return text(key, locale, path=change.rel)


async def review_request(change: FileChange) -> EditRequest:
    """What the user is shown when asked: the change and its unified diff (worked out off the
    event loop: a large file's diff takes a while)."""
    diff = await asyncio.to_thread(unified_diff, change.rel, change.before, change.after)
    return EditRequest(change.tool, change.path, change.rel, change.before, change.after, diff)


@dataclass(frozen=True)
class _Checked:
    """The change still fits what the user sees; `disk_before` is what the disk held then
    (the save step writes only over that)."""

    disk_before: str | None


class DeliveryPipeline:
    """Deliver checked changes through one editor port, asking `approver` before reviews."""

    def __init__(self, port: EditorPort, approver: Approver, locale: Locale) -> None:
        self._port = port
        self._approver = approver
        self.locale = locale

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        """Check, review (when asked), apply, save and verify `change`; see the module
        docstring."""
        checked = await self._fresh(change)
        if isinstance(checked, Delivery):
            return checked
        self._port.reviewing(change)
        route = self._port.route(change) if review else None
        choice, sent = Choice.ALLOW_ONCE, change
        if route is Route.ASK:
            answer = await consult(self._approver, await review_request(change), self.locale)
            if isinstance(answer, Refused):
                return Delivery(DeliveryStatus.REJECTED, Choice.DENY, reason=answer.message)
            choice = answer.choice
            if answer.after is not None:  # the user accepted only some hunks
                sent = replace(change, after=answer.after)
            checked = await self._fresh(change, checked)
            if isinstance(checked, Delivery):
                return checked
        landed = await self._port.apply(sent, preview=route is Route.PREVIEW)
        if isinstance(landed, Delivery):
            return landed
        if sent is not change and landed.kept is None:
            landed = replace(landed, kept=sent.after)
        return await self._finish(change, checked, landed, choice)

    async def _fresh(
        self, change: FileChange, earlier: _Checked | None = None
    ) -> _Checked | Delivery:
        """Is `change` still meant for what the user sees? After a review (`earlier`: the check
        before it), typing meanwhile is told as such first; the disk may have moved too."""
        reviewed = earlier is not None
        if reviewed and (stale := await self._stale(change, reviewed=True)) is not None:
            return stale
        disk_before = await self._port.disk(change.path)  # read first: it notes a drift
        drift = self._port.drift(change.path)
        moved = earlier is not None and disk_before != earlier.disk_before
        if drift is None and moved and (await self._port.shown(change.path)).in_editor:
            drift = Drift.OUTDATED  # the editor still shows the text it loaded, not the disk's
        if drift is not None:
            return failed(_DRIFT[drift], self.locale, path=change.rel)
        if not reviewed and (stale := await self._stale(change, reviewed=False)) is not None:
            return stale
        return _Checked(disk_before)

    async def _stale(self, change: FileChange, *, reviewed: bool) -> Delivery | None:
        now = (await self._port.shown(change.path)).text
        if now == change.before:
            return None
        reason = self._port.stale(change, now, reviewed=reviewed)
        return Delivery(DeliveryStatus.FAILED, reason=reason)

    async def _finish(
        self, change: FileChange, checked: _Checked, landed: Landed, choice: Choice
    ) -> Delivery:
        """Save and verify what landed (all of `change`, or the part the user kept)."""
        target = replace(change, after=landed.kept) if landed.kept is not None else change
        outcome = await finish(self._port, self.locale, target, checked.disk_before, landed, choice)
        if outcome.status is not DeliveryStatus.APPLIED:
            return outcome
        landed_text = outcome.text if outcome.text is not None else target.after
        self._port.landed(target, landed_text)
        if landed.kept is None:
            return outcome
        partial = partly_kept(change.rel, change.after, landed_text, self.locale)
        note = " ".join(filter(None, [partial, outcome.note]))
        return replace(outcome, note=note, text=landed_text)
