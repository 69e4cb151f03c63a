"""The ACP client as the core's workspace view: the editor's text in, reviewed edits out.

Reading: through `fs/read_text_file` when the client offers it (the editor's unsaved text),
else the disk; a file whose editor text differs from its disk is an unsaved file, which the
system prompt names. Delivering a checked change (design §2.12) is the core's one pipeline
(`DeliveryPipeline`: fresh before and after the review, review, apply, save only over an
unchanged disk, verify) over this client's transport (`AcpPort`):

- ACP writes whole files with no version check, so the pipeline's freshness checks are what
  keeps the user's typing (I4);
- the review is `session/request_permission` showing the diff (`KeSi` asks through the
  approver; a cancelled or failed request is a deny);
- apply: `fs/write_text_file` when offered (the editor may save it, and reformat it on the
  way), else the core's own atomic write; an editor that kept the change unsaved gets the same
  bytes written to disk for it, so commands see the change, never over a disk that moved.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from acp import RequestError

from kesi_lsp.acp.client import AcpClient, ClientGoneError
from kesi_lsp.acp.errors import client_reason
from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.catalog import Locale
from kesi_lsp.core import (
    Approver,
    Delivery,
    DeliveryPipeline,
    DeliveryStatus,
    DiskWorkspace,
    Drift,
    FileChange,
    FileText,
    Landed,
    Route,
    Saved,
    Shown,
    delivery_failed,
    stale_words,
    write_change,
)

log = logging.getLogger(__name__)


def same_text(a: str | None, b: str | None) -> bool:
    """Equal, or equal but for CRLF line ends (an editor may hold LF and save CRLF)."""
    if a is None or b is None:
        return a is b
    return a == b or a.replace("\r\n", "\n") == b.replace("\r\n", "\n")


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
        self.client = client
        self.session = session
        self.locale = locale
        self._on_applied = on_applied
        self.on_review = on_review
        self._disk = DiskWorkspace(session.root, approver, locale=locale)
        self._unsaved: set[Path] = set()
        self._pipeline = DeliveryPipeline(AcpPort(self), approver, locale)

    # -- reading --------------------------------------------------------------------------

    async def read_text(self, path: Path) -> FileText:
        if not self.client.features.read_text_file:
            return await self._disk.read_text(path)
        try:
            shown = await self.client.read_text_file(
                self.session.id, self.session.client_path(path)
            )
        except (RequestError, ClientGoneError) as exc:
            log.info("fs/read_text_file failed for %s, reading the disk: %s", path, exc)
            return await self._disk.read_text(path)
        disk = await self.disk_text(path)
        unsaved = disk is not None and not same_text(disk, shown)
        (self._unsaved.add if unsaved else self._unsaved.discard)(path)
        return FileText(shown, unsaved=unsaved)

    def unsaved_files(self) -> tuple[Path, ...]:
        return tuple(sorted(self._unsaved))

    async def disk_text(self, path: Path) -> str | None:
        """The disk's text (None: no such file, or unreadable)."""
        try:
            return (await self._disk.read_text(path)).text
        except (OSError, UnicodeDecodeError):
            return None

    async def editor_text(self, path: Path) -> Shown:
        """The editor's text when it can say, else the disk's."""
        if not self.client.features.read_text_file or not await asyncio.to_thread(path.exists):
            return Shown(await self.disk_text(path))
        try:
            where = self.session.client_path(path)
            return Shown(await self.client.read_text_file(self.session.id, where), in_editor=True)
        except (RequestError, ClientGoneError) as exc:
            log.info("fs/read_text_file failed for %s, reading the disk: %s", path, exc)
            return Shown(await self.disk_text(path))

    def landed(self, change: FileChange, text: str) -> None:
        self._unsaved.discard(change.path)
        self._on_applied(change, text)

    # -- delivering: the core's one pipeline, over this client's transport --------------

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        return await self._pipeline.deliver(change, review=review)


class AcpPort:
    """The editor port of one run of an ACP client: `fs/read_text_file` in, `fs/write_text_file`
    (or the core's atomic write) out; the client never saves on request, so the server writes
    the same bytes for an editor that keeps the change unsaved."""

    def __init__(self, view: AcpWorkspaceView) -> None:
        self._view = view

    async def shown(self, path: Path) -> Shown:
        return await self._view.editor_text(path)

    async def disk(self, path: Path) -> str | None:
        return await self._view.disk_text(path)

    def drift(self, path: Path) -> Drift | None:
        return None  # ACP tells nothing of the editor's buffers beyond their text

    def route(self, change: FileChange) -> Route:
        return Route.ASK  # `session/request_permission` showing the diff

    def reviewing(self, change: FileChange) -> None:
        self._view.on_review(change)  # the card shows the diff, asked about or not

    async def apply(self, change: FileChange, *, preview: bool) -> Landed | Delivery:
        """Hand the whole new text to the editor, or write it to disk."""
        view = self._view
        if not view.client.features.write_text_file:
            reason = await self.write(change)
            return Landed() if reason is None else Delivery(DeliveryStatus.FAILED, reason=reason)
        where = view.session.client_path(change.path)
        try:
            await view.client.write_text_file(view.session.id, where, change.after)
        except (RequestError, ClientGoneError) as exc:
            return delivery_failed(
                "acp.edit.write_failed", view.locale, path=change.rel, error=client_reason(exc)
            )
        return Landed(written=True)

    async def save(self, change: FileChange) -> Saved | None:
        return None  # ACP has no save request: the server writes the same bytes

    async def write(self, change: FileChange) -> str | None:
        view = self._view
        return await asyncio.to_thread(write_change, change, view.session.root, view.locale)

    def same(self, a: str | None, b: str | None) -> bool:
        return same_text(a, b)

    def stale(self, change: FileChange, now: str | None, *, reviewed: bool) -> str:
        return stale_words(change, self._view.locale, reviewed=reviewed)

    def landed(self, change: FileChange, text: str) -> None:
        self._view.landed(change, text)
