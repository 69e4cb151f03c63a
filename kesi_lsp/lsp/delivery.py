"""The editor-backed workspace view: review, apply, save, verify (design §2.7).

The core hands over a change it has fully checked against the text the user sees. Here it
is shown to the user (through whichever review the client supports), applied through
`workspace/applyEdit` so it lands on the editor's undo stack, saved so commands see it, and
then verified: disk, buffer and intent must agree before `APPLIED` is returned (I1). Whatever
the editor says, the text is what counts: Neovim answers `applied: true` for an edit it
skipped as stale, so every step re-reads instead of trusting a flag.

The disk is read and written in a worker thread (`asyncio.to_thread`), never on the event
loop. An await can now separate a check from the step it guards, so the step that pins the
edit to a buffer version re-checks that buffer in memory first (`_apply`).

The disk is never written over behind the editor's back: an edit to a buffer the disk moved
away from (a command changed the file; the editor did not reload it) is refused before
anything happens, and a save is skipped when the disk changed during the delivery.

The editor may reshape the text while saving it (format on save, trimmed whitespace, a final
newline). When disk and buffer agree after the save, the edit landed: the model is told the
file was reformatted, so it reads it again before the next change.

In the editor's own preview (VS Code's Refactor Preview) the user may tick only part of a
change: that part is their answer. It is saved like any accepted edit, and the model is told
exactly what landed (a diff from its version to the saved one).

A change that needs review is never delivered unreviewed: when the annotated `applyEdit`
(the editor's own preview) cannot carry it, the user is asked with the prompt instead.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.workspace import PositionCodec

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Choice, EditRequest, asking
from kesi_lsp.core.diff import unified_diff
from kesi_lsp.core.events import Event, ToolFinished
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange, FileText
from kesi_lsp.lsp.approver import Prompter, edit_message, truncate_diff
from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.documents import Documents, read_disk_or_none, write_atomic
from kesi_lsp.lsp.edits import EditPlan, workspace_edit
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.wire import ClientGoneError, Wire

log = logging.getLogger(__name__)

REVIEW_EDIT: Final = "kesi/reviewEdit"
SAVE_DOCUMENTS: Final = "kesi/saveDocuments"
SETTLE_SECONDS: Final = 2.0  # how long an applied edit may take to show up as didChange
APPEAR_SECONDS: Final = 0.2  # how long a file the edit opened may take to show up as didOpen
SAVE_SECONDS: Final = 10.0
_POLL: Final = 0.02

_DECISIONS: Final = {
    "accept": Choice.ALLOW_ONCE,
    "acceptSession": Choice.ALLOW_SESSION,
    "reject": Choice.DENY,
}


@dataclass
class EditorLink:
    """Everything the view needs from the server, shared by all runs of one client."""

    wire: Wire
    features: ClientFeatures
    documents: Documents
    codec: PositionCodec


def _failed(key: str, locale: Locale, **fields: object) -> Delivery:
    return Delivery(DeliveryStatus.FAILED, reason=text(key, locale, **fields))


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


class LspWorkspaceView:
    """`WorkspaceView` for one run: reads the editor's text, delivers changes through it."""

    def __init__(
        self,
        link: EditorLink,
        root: Path,
        run_id: str,
        prompter: Prompter,
        on_applied: Callable[[FileChange], None],
    ) -> None:
        self._link = link
        self._root = root
        self._run_id = run_id
        self._prompter = prompter
        self._on_applied = on_applied
        self._refreshing: set[asyncio.Task[None]] = set()

    @property
    def _locale(self) -> Locale:
        return self._prompter.locale

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
        if isinstance(event, ToolFinished):
            task = asyncio.ensure_future(self._link.documents.refresh_disk(self._root))
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    async def _current(self, path: Path) -> str | None:
        doc = self._link.documents.open_document(path)
        if doc is not None:
            return doc.source
        return await asyncio.to_thread(read_disk_or_none, path)

    async def _disk(self, path: Path, *, saved_by_editor: bool = False) -> str | None:
        """Read the disk (off the loop) and note it; after the editor's own save the new text
        is the editor's write, never a sign that something else changed the file."""
        text = await asyncio.to_thread(read_disk_or_none, path)
        self._link.documents.disk.note(path, text, written_by_editor=saved_by_editor)
        return text

    async def _stale(self, change: FileChange, key: str) -> Delivery | None:
        if await self._current(change.path) == change.before:
            return None
        if change.before is None:
            return _failed("lsp.edit.exists", self._locale, path=change.rel)
        return _failed(key, self._locale, path=change.rel)

    async def _disk_now(self, path: Path) -> str | None:
        """The disk's text, read after the refreshes under way (a command just finished):
        reading it notes a move under a clean buffer (`DiskTexts.moved`)."""
        if self._refreshing:  # `wait`, not `gather`: a cancel here must not cancel them
            await asyncio.wait(set(self._refreshing))
        return await self._disk(path)

    def _outdated(self, change: FileChange) -> Delivery | None:
        """Refuse an edit to an open buffer whose file changed on disk since it was loaded
        (clean buffer: reload it; unsaved changes: the user must choose which side wins)."""
        documents = self._link.documents
        if documents.open_document(change.path) is None:
            return None
        if change.path in documents.disk.moved:
            return _failed("lsp.edit.disk_moved", self._locale, path=change.rel)
        if change.path in documents.disk.conflicted:
            return _failed("lsp.edit.disk_conflict", self._locale, path=change.rel)
        return None

    def _review_path(self, change: FileChange, review: bool) -> str | None:
        """How to show `change`; the annotated preview only when applyEdit can carry it."""
        if not review:
            return None
        features = self._link.features
        path = features.review_path
        creating = change.before is None
        if path == "annotation" and (
            not features.apply_edit or (creating and not features.create_files)
        ):
            return "prompt"  # it would be written to disk directly, unseen: ask first
        return path

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        """Review (when asked), apply, save and verify `change`; see the module docstring."""
        disk_before = await self._disk_now(change.path)
        if (outdated := self._outdated(change)) is not None:
            return outdated
        if (stale := await self._stale(change, "lsp.edit.stale")) is not None:
            return stale
        path = self._review_path(change, review)
        choice = Choice.ALLOW_ONCE
        if path in ("kesi", "prompt"):
            choice = await self._review(change, path)
            if choice is Choice.DENY:
                return Delivery(DeliveryStatus.REJECTED, choice=Choice.DENY)
            if (stale := await self._stale(change, "lsp.edit.stale_review")) is not None:
                return stale
            disk_before = await self._disk_now(change.path)  # the disk may have moved meanwhile
            if (outdated := self._outdated(change)) is not None:
                return outdated
        annotate = path == "annotation"
        outcome = await self._apply(change, annotate=annotate)
        if outcome is None:
            outcome = await self._settle(change, annotate=annotate)
        if outcome is not None:
            return outcome
        kept = self._kept_part(change) if annotate else None
        target = replace(change, after=kept) if kept is not None else change
        saved_by_editor = await self._save(target, disk_before)
        outcome = await self._verify(target, choice, reshaped_ok=saved_by_editor)
        if kept is not None and outcome.status is DeliveryStatus.APPLIED:
            landed = outcome.text if outcome.text is not None else kept
            note = " ".join(filter(None, [self._partial_note(change, landed), outcome.note]))
            outcome = replace(outcome, note=note, text=landed)
        return outcome

    def _kept_part(self, change: FileChange) -> str | None:
        """After the editor's preview: the buffer's text when the user ticked only part of
        the change (neither all of it nor none), else None."""
        doc = self._link.documents.open_document(change.path)
        if doc is None or doc.source in (change.after, change.before or ""):
            return None
        return doc.source

    def _partial_note(self, change: FileChange, kept: str) -> str:
        """Tell the model exactly what landed: a diff from its version to the user's."""
        diff = unified_diff(change.rel, change.after, kept)
        return text(
            "lsp.edit.partial",
            self._locale,
            path=change.rel,
            diff=truncate_diff(diff, self._locale),
        )

    # -- 1. review ------------------------------------------------------------------------

    async def _review(self, change: FileChange, path: str) -> Choice:
        """Ask the user about `change`; a cancel while they look is an interrupted prompt."""
        diff = unified_diff(change.rel, change.before, change.after)
        with asking():
            return await self._ask_review(change, path, diff)

    async def _ask_review(self, change: FileChange, path: str, diff: str) -> Choice:
        if path == "prompt":
            request = EditRequest(
                change.tool, change.path, change.rel, change.before, change.after, diff
            )
            return await self._prompter.ask(edit_message(request, self._locale))
        params = {
            "runId": self._run_id,
            "uri": path_to_uri(change.path),
            "path": change.rel,
            "before": change.before,
            "after": change.after,
            "diff": diff,
        }
        try:
            answer = await self._link.wire.request(REVIEW_EDIT, params)
        except (ClientGoneError, JsonRpcException) as exc:
            log.info("kesi/reviewEdit failed, treating as reject: %s", exc)
            return Choice.DENY
        decision = answer.get("decision") if isinstance(answer, dict) else None
        return _DECISIONS.get(decision, Choice.DENY) if isinstance(decision, str) else Choice.DENY

    # -- 2. apply -------------------------------------------------------------------------

    async def _apply(self, change: FileChange, *, annotate: bool) -> Delivery | None:
        """Send the edit; None means "the editor took it", else the final outcome."""
        features = self._link.features
        doc = self._link.documents.open_document(change.path)
        if doc is not None and doc.source != change.before:  # changed while we awaited
            key = "lsp.edit.exists" if change.before is None else "lsp.edit.stale"
            return _failed(key, self._locale, path=change.rel)
        creating = change.before is None
        if not features.apply_edit or (creating and not features.create_files):
            if doc is not None:
                return _failed("lsp.edit.no_apply", self._locale, path=change.rel)
            return await self._write(change)
        label = text("lsp.edit.label", self._locale, tool=change.tool, path=change.rel)
        plan = EditPlan(
            uri=path_to_uri(change.path),
            before=change.before or "",
            after=change.after,
            version=doc.version if doc is not None else None,
            create=creating,
            label=label,
            annotation=text("lsp.review.annotation", self._locale) if annotate else None,
        )
        edit = workspace_edit(plan, self._link.codec, document_changes=features.document_changes)
        params = types.ApplyWorkspaceEditParams(edit=edit, label=label)
        try:
            result = await self._link.wire.request(types.WORKSPACE_APPLY_EDIT, params)
        except (ClientGoneError, JsonRpcException) as exc:
            if await self._current(change.path) != change.before:  # Emacs: "require version"
                return _failed("lsp.edit.stale", self._locale, path=change.rel)
            if isinstance(exc, JsonRpcException):
                # Eglot answers the user's "n" to its own "Server wants to edit … Proceed?"
                # with an error ("User cancelled server edit"): a refusal, like applied: false.
                log.info("the editor answered applyEdit with an error; the user refused: %s", exc)
                return Delivery(DeliveryStatus.REJECTED, choice=Choice.DENY)
            return _failed("lsp.edit.apply_error", self._locale, path=change.rel, error=str(exc))
        if getattr(result, "applied", False):
            return None
        if await self._current(change.path) != change.before:
            return _failed("lsp.edit.stale", self._locale, path=change.rel)
        if annotate:  # the user left the change unticked in the preview
            return Delivery(DeliveryStatus.REJECTED, choice=Choice.DENY)
        reason = getattr(result, "failure_reason", None) or text("lsp.edit.no_reason", self._locale)
        return _failed("lsp.edit.refused", self._locale, path=change.rel, reason=reason)

    async def _write(self, change: FileChange) -> Delivery | None:
        try:
            await asyncio.to_thread(write_atomic, change.path, change.after)
        except OSError as exc:
            return _failed("lsp.edit.write_error", self._locale, path=change.rel, error=str(exc))
        return None

    async def _settle(self, change: FileChange, *, annotate: bool = False) -> Delivery | None:
        """Wait for the editor's didChange/didOpen to show the edit; judge the buffer.

        After the editor's own preview (`annotate`), a buffer holding part of the change is
        the user's answer, not a failure: None, and `deliver` keeps that part."""
        documents = self._link.documents
        was_open = documents.open_document(change.path) is not None
        deadline = time.monotonic() + (SETTLE_SECONDS if was_open else APPEAR_SECONDS)
        while True:
            doc = documents.open_document(change.path)
            if doc is not None and doc.source == change.after:
                return None
            if doc is not None and not was_open:  # just opened: give didChange its time
                was_open, deadline = True, time.monotonic() + SETTLE_SECONDS
            if time.monotonic() >= deadline:
                break
            await asyncio.sleep(_POLL)
        if doc is None:
            return None  # the editor does not show us this file; the disk decides
        if doc.source == (change.before or ""):
            return _failed("lsp.edit.skipped", self._locale, path=change.rel)
        if annotate:
            return None
        return _failed("lsp.edit.buffer_differs", self._locale, path=change.rel)

    # -- 3. save and 4. verify --------------------------------------------------------------

    async def _save(self, change: FileChange, disk_before: str | None) -> bool:
        """Bring the buffer to disk; True when the editor saved it (it may reshape the text).

        Nothing is saved when the disk changed since the delivery began (someone else wrote
        the file meanwhile): `_verify` then reports the edit as not saved.
        """
        now = await self._disk(change.path)
        if now == change.after:
            return False
        if change.before is not None and now != disk_before:
            log.info("%s changed on disk during the delivery; not saving over it", change.rel)
            return False
        if self._link.features.save_documents:
            uri = path_to_uri(change.path)
            try:
                answer = await asyncio.wait_for(
                    self._link.wire.request(SAVE_DOCUMENTS, {"uris": [uri]}), SAVE_SECONDS
                )
            except (ClientGoneError, JsonRpcException, TimeoutError) as exc:
                log.info("kesi/saveDocuments failed, saving ourselves: %s", exc)
            else:
                saved = await self._disk(change.path, saved_by_editor=True)
                if saved == change.after or self._editor_reshaped(change, saved):
                    return True
                if uri in _failed_uris(answer):  # e.g. VS Code: "the file on disk is newer"
                    log.info("the editor could not save %s; not saving over it", change.rel)
                    return False
        doc = self._link.documents.open_document(change.path)
        if doc is None or doc.source == change.after:
            if await self._disk(change.path) != now:  # someone wrote it while we waited
                log.info("%s changed on disk while saving; not saving over it", change.rel)
                return False
            await self._write(change)
        return False

    def _editor_reshaped(self, change: FileChange, disk: str | None) -> bool:
        """The editor saved what it shows, but not `change.after`: it reformatted on save."""
        doc = self._link.documents.open_document(change.path)
        if disk is None or disk in (change.after, change.before) or doc is None:
            return False  # the buffer back at `before` is an undo, not a reformat
        return doc.source == disk

    async def _verify(self, change: FileChange, choice: Choice, *, reshaped_ok: bool) -> Delivery:
        """I1: the disk, then the buffer (in memory, after the read), must hold the intent --
        or, after the editor's own save (`reshaped_ok`), the text it reformatted it to."""
        disk = await self._disk(change.path)
        if reshaped_ok and self._editor_reshaped(change, disk):
            self._on_applied(change)
            note = text("lsp.edit.reformatted", self._locale, path=change.rel)
            return Delivery(DeliveryStatus.APPLIED, choice=choice, note=note, text=disk)
        if disk != change.after:
            return _failed("lsp.edit.not_saved", self._locale, path=change.rel)
        doc = self._link.documents.open_document(change.path)
        if doc is not None and doc.source != change.after:
            return _failed("lsp.edit.buffer_differs", self._locale, path=change.rel)
        self._on_applied(change)
        return Delivery(DeliveryStatus.APPLIED, choice=choice)
