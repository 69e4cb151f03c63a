"""The editor-backed workspace view of one LSP run (design §2.7).

Reading is the editor's text (`Documents`: the open buffer, unsaved changes included, else the
disk). Delivering is the core's one pipeline (`DeliveryPipeline`: fresh before and after the
review, review, apply, save only over an unchanged disk, verify) over this client's transport
(`LspPort`: documents in, `workspace/applyEdit` and `kesi/saveDocuments` out).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from kesi_lsp.catalog import Locale
from kesi_lsp.core import Approver, Delivery, DeliveryPipeline, Event, FileChange, FileText
from kesi_lsp.lsp.documents import read_disk
from kesi_lsp.lsp.editor_port import LspPort
from kesi_lsp.lsp.link import EditorLink


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
        self._port = LspPort(link, root, locale, on_applied)
        self._pipeline = DeliveryPipeline(self._port, approver, locale)

    async def read_text(self, path: Path) -> FileText:
        """The editor's text; the disk's for a buffer the editor has yet to reload after the
        server wrote its file (a client whose files go by the disk: `LspPort`)."""
        if self._port.outdated_by_disk(path):
            return FileText(await asyncio.to_thread(read_disk, path))
        return await self._link.documents.file_text(path)

    def unsaved_files(self) -> tuple[Path, ...]:
        return self._link.documents.unsaved(self._root)

    async def begin(self) -> None:
        """Learn what the disk holds for the open documents before the first turn."""
        await self._link.documents.refresh_disk(self._root)

    def watch(self, event: Event) -> None:
        """After each tool (a command may have changed files), re-read the disk of the open
        documents in the background, so the next turns' list of unsaved files stays true."""
        self._port.watch(event)

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        return await self._pipeline.deliver(change, review=review)
