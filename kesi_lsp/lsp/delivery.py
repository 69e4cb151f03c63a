"""The editor-backed workspace view: review, apply, save, verify (design §2.7).

The core hands over a change it has fully checked against the text the user sees. Here it
goes through four steps, each in its own module, each ending with a typed outcome
(`outcomes.py`) or the delivery's final answer:

1. review (`review.py`): through the route the client supports -- our clients' review or a
   prompt, both asked through the core's approval seam, or the editor's own preview, which is
   part of applying; checks before and after (`freshness.py`) refuse an edit the user typed
   over, or one to a buffer the disk moved away from (OUTDATED or CONFLICTED);
2. apply (`apply.py`): `workspace/applyEdit`, so the edit lands on the editor's undo stack;
3. save (`save.py`): so commands see it, never over a disk that changed meanwhile;
4. verify (`verify.py`): disk, buffer and intent must agree before `APPLIED` is returned (I1).

Whatever the editor says, the text is what counts: Neovim answers `applied: true` for an edit
it skipped as stale, so every step re-reads instead of trusting a flag. The disk is read and
written in a worker thread (`asyncio.to_thread`), never on the event loop; an await can
separate a check from the step it guards, so each step re-checks what it relies on.

The editor may reshape the text while saving it (format on save); when disk and buffer agree
after the save, the edit landed and the model is told the file was reformatted. In the editor's
preview (VS Code's Refactor Preview, one annotated change per hunk) or our clients' review
(Neovim's review tab, hunk by hunk) the user may accept only part of a change: that part is
their answer, saved like any accepted edit, and the model is told exactly what landed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from kesi_lsp.catalog import Locale
from kesi_lsp.core import (
    Approver,
    Choice,
    Delivery,
    DeliveryStatus,
    Event,
    FileChange,
    FileText,
    Refused,
    consult,
)
from kesi_lsp.lsp.apply import apply_change
from kesi_lsp.lsp.capabilities import ReviewRoute
from kesi_lsp.lsp.freshness import Freshness
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.outcomes import Checked, Landed
from kesi_lsp.lsp.review import edit_request, partial_note, review_route
from kesi_lsp.lsp.save import save_change
from kesi_lsp.lsp.verify import verify_change


class LspWorkspaceView:
    """`WorkspaceView` for one run: reads the editor's text, delivers changes through it."""

    def __init__(
        self,
        link: EditorLink,
        root: Path,
        approver: Approver,
        locale: Locale,
        on_applied: Callable[[FileChange], None],
    ) -> None:
        self._link = link
        self._root = root
        self._approver = approver
        self._locale = locale
        self._on_applied = on_applied
        self._freshness = Freshness(link.documents, root, locale)

    async def read_text(self, path: Path) -> FileText:
        return await self._link.documents.file_text(path)

    def unsaved_files(self) -> tuple[Path, ...]:
        return self._link.documents.unsaved(self._root)

    async def begin(self) -> None:
        """Learn what the disk holds for the open documents before the first turn."""
        await self._link.documents.refresh_disk(self._root)

    def watch(self, event: Event) -> None:
        """After each tool (a command may have changed files), re-read the disk of the open
        documents in the background, so the next turns' list of unsaved files stays true."""
        self._freshness.watch(event)

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        """Review (when asked), apply, save and verify `change`; see the module docstring."""
        checked = await self._freshness.before_review(change)
        if isinstance(checked, Delivery):
            return checked
        route = review_route(self._link.features, change) if review else None
        choice = Choice.ALLOW_ONCE
        sent = change
        if route in (ReviewRoute.CLIENT, ReviewRoute.PROMPT):
            answer = await consult(self._approver, edit_request(change), self._locale)
            if isinstance(answer, Refused):
                return Delivery(DeliveryStatus.REJECTED, Choice.DENY, reason=answer.message)
            choice = answer.choice
            if answer.after is not None:  # the user accepted only some hunks
                sent = replace(change, after=answer.after)
            checked = await self._freshness.after_review(change)
            if isinstance(checked, Delivery):
                return checked
        preview = route is ReviewRoute.PREVIEW
        landed = await apply_change(self._link, sent, self._root, self._locale, preview=preview)
        if isinstance(landed, Delivery):
            return landed
        if sent is not change and landed.kept is None:
            landed = Landed(kept=sent.after)
        return await self._finish(change, checked, landed, choice)

    async def _finish(
        self, change: FileChange, checked: Checked, landed: Landed, choice: Choice
    ) -> Delivery:
        """Save and verify what landed (all of `change`, or the part the user kept)."""
        target = replace(change, after=landed.kept) if landed.kept is not None else change
        saved = await save_change(self._link, target, checked.disk_before, self._root, self._locale)
        outcome = await verify_change(self._link, target, choice, saved, self._locale)
        if outcome.status is not DeliveryStatus.APPLIED:
            return outcome
        self._on_applied(target)
        if landed.kept is None:
            return outcome
        text = outcome.text if outcome.text is not None else landed.kept
        note = " ".join(filter(None, [partial_note(change, text, self._locale), outcome.note]))
        return replace(outcome, note=note, text=text)
