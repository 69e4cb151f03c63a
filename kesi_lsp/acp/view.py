"""The ACP client as the core's workspace view: the editor's text in, reviewed edits out.

Reading: through `fs/read_text_file` when the client offers it (the editor's unsaved text),
else the disk; a file whose editor text differs from its disk is an unsaved file, which the
system prompt names. Delivering a checked change (design §2.12):

1. fresh? ACP writes whole files with no version check, so the text the change was computed
   on must still be what the editor has, before the review and again after it (I4): typing
   meanwhile refuses the edit as stale, and the model is told to read the file again;
2. review, unless the file has a session grant: `session/request_permission` showing the diff
   (`KeSi` asks through the approver; a cancelled or failed request is a deny);
3. write: `fs/write_text_file` when offered, else the core's own atomic write;
4. verify: what the editor and the disk hold is what was meant (or the editor reformatted it
   on save, and the model is told); an editor that kept the change unsaved gets the same
   bytes written to disk for it, so commands see the change, never over a disk that moved.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from acp import RequestError

from kesi_lsp.acp.client import AcpClient, ClientGoneError
from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    Approver,
    Choice,
    Delivery,
    DeliveryStatus,
    DiskWorkspace,
    EditRequest,
    FileChange,
    FileText,
    Refused,
    consult,
    unified_diff,
    write_change,
)

log = logging.getLogger(__name__)


def same_text(a: str | None, b: str | None) -> bool:
    """Equal, or equal but for CRLF line ends (an editor may hold LF and save CRLF)."""
    if a is None or b is None:
        return a is b
    return a == b or a.replace("\r\n", "\n") == b.replace("\r\n", "\n")


@dataclass(frozen=True)
class Now:
    """What the editor (or the disk) holds for a file at one moment; None: no such file.
    `problem`: the file could not be read at all."""

    text: str | None
    problem: str | None = None


class AcpWorkspaceView:
    """`WorkspaceView` for one run of one session."""

    def __init__(
        self,
        client: AcpClient,
        session: AcpSession,
        approver: Approver,
        locale: Locale,
        on_applied: Callable[[FileChange, str], None],
        on_review: Callable[[FileChange], None],
    ) -> None:
        self._client = client
        self._session = session
        self._approver = approver
        self._locale = locale
        self._on_applied = on_applied
        self._on_review = on_review
        self._disk = DiskWorkspace(session.root, approver, locale=locale)
        self._unsaved: set[Path] = set()

    # -- reading --------------------------------------------------------------------------

    async def read_text(self, path: Path) -> FileText:
        if not self._client.features.read_text_file:
            return await self._disk.read_text(path)
        try:
            shown = await self._client.read_text_file(
                self._session.id, self._session.client_path(path)
            )
        except (RequestError, ClientGoneError) as exc:
            log.info("fs/read_text_file failed for %s, reading the disk: %s", path, exc)
            return await self._disk.read_text(path)
        disk = await self._disk_text(path)
        unsaved = disk.text is not None and not same_text(disk.text, shown)
        (self._unsaved.add if unsaved else self._unsaved.discard)(path)
        return FileText(shown, unsaved=unsaved)

    def unsaved_files(self) -> tuple[Path, ...]:
        return tuple(sorted(self._unsaved))

    async def _disk_text(self, path: Path) -> Now:
        try:
            return Now((await self._disk.read_text(path)).text)
        except FileNotFoundError:
            return Now(None)
        except (OSError, UnicodeDecodeError) as exc:
            return Now(None, str(exc))

    async def _editor_text(self, path: Path) -> Now:
        """The editor's text when it can say, else the disk's."""
        if not self._client.features.read_text_file or not await asyncio.to_thread(path.exists):
            return await self._disk_text(path)
        try:
            return Now(
                await self._client.read_text_file(self._session.id, self._session.client_path(path))
            )
        except (RequestError, ClientGoneError) as exc:
            log.info("fs/read_text_file failed for %s, reading the disk: %s", path, exc)
            return await self._disk_text(path)

    # -- delivering -----------------------------------------------------------------------

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        """Check, review (when asked), write and verify `change`; see the module docstring."""
        stale = await self._stale(change, "acp.edit.stale")
        if stale is not None:
            return stale
        disk_before = (await self._disk_text(change.path)).text
        self._on_review(change)  # the card shows the diff, asked about or not
        choice = Choice.ALLOW_ONCE
        if review:
            diff = await asyncio.to_thread(unified_diff, change.rel, change.before, change.after)
            request = EditRequest(
                change.tool, change.path, change.rel, change.before, change.after, diff
            )
            answer = await consult(self._approver, request, self._locale)
            if isinstance(answer, Refused):
                return Delivery(DeliveryStatus.REJECTED, Choice.DENY, reason=answer.message)
            choice = answer.choice
            stale = await self._stale(change, "acp.edit.stale_review")
            if stale is not None:
                return stale
            disk_before = (await self._disk_text(change.path)).text
        failure = await self._write(change)
        if failure is not None:
            return failure
        delivery = await self._verify(change, choice, disk_before)
        if delivery.status is DeliveryStatus.APPLIED:
            self._unsaved.discard(change.path)
            self._on_applied(change, delivery.text if delivery.text is not None else change.after)
        return delivery

    def _failed(self, key: str, **fields: object) -> Delivery:
        return Delivery(DeliveryStatus.FAILED, reason=text(key, self._locale, **fields))

    async def _stale(self, change: FileChange, key: str) -> Delivery | None:
        """Refuse a change whose `before` is no longer what the editor holds."""
        now = await self._editor_text(change.path)
        if change.before is None:
            return None if now.text is None else self._failed("acp.edit.exists", path=change.rel)
        if now.text is not None and now.text == change.before:
            return None
        return self._failed(key, path=change.rel)

    async def _write(self, change: FileChange) -> Delivery | None:
        """Hand the whole new text to the editor, or write it to disk; None when it went."""
        if self._client.features.write_text_file:
            where = self._session.client_path(change.path)
            try:
                await self._client.write_text_file(self._session.id, where, change.after)
            except (RequestError, ClientGoneError) as exc:
                return self._failed("acp.edit.write_failed", path=change.rel, error=str(exc))
            return None
        reason = await asyncio.to_thread(write_change, change, self._session.root, self._locale)
        return Delivery(DeliveryStatus.FAILED, reason=reason) if reason is not None else None

    async def _verify(
        self, change: FileChange, choice: Choice, disk_before: str | None
    ) -> Delivery:
        """APPLIED only when the editor and the disk hold the change (or agree on the text the
        editor reformatted it to on save); see the module docstring."""
        shown = await self._editor_text(change.path)
        disk = await self._disk_text(change.path)
        if not same_text(shown.text, change.after):
            if shown.text is not None and same_text(disk.text, shown.text):
                note = text("acp.edit.reformatted", self._locale, path=change.rel)
                return Delivery(DeliveryStatus.APPLIED, choice, note=note, text=shown.text)
            return self._failed("acp.edit.differs", path=change.rel)
        if same_text(disk.text, change.after):
            return Delivery(DeliveryStatus.APPLIED, choice)
        saved = await self._save_for_editor(change, disk, disk_before)
        return (
            Delivery(DeliveryStatus.APPLIED, choice)
            if saved
            else self._failed("acp.edit.not_saved", path=change.rel)
        )

    async def _save_for_editor(
        self, change: FileChange, disk: Now, disk_before: str | None
    ) -> bool:
        """The editor holds the change but did not save it: write the same text to disk,
        only over the disk as it was before the delivery."""
        if disk.problem is not None or disk.text != disk_before:
            log.info("%s moved on disk during the delivery; not saving over it", change.rel)
            return False
        on_disk = replace(change, before=disk.text)
        reason = await asyncio.to_thread(write_change, on_disk, self._session.root, self._locale)
        if reason is not None:
            log.info("could not save %s for the editor: %s", change.rel, reason)
            return False
        return same_text((await self._disk_text(change.path)).text, change.after)
