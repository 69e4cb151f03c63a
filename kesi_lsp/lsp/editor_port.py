"""The LSP client as the core's editor port (design §2.7): pygls' documents in, applyEdit out.

Only the transport is here; the delivery's rules are the core's (`DeliveryPipeline`):

- what the user sees: the open document (pygls keeps it in sync), else the disk;
- drift: the open buffer's `BufferState` (OUTDATED or CONFLICTED against the disk);
- the review route the client's capabilities choose: our clients' review or a prompt, both
  asked through the approver, or the editor's own preview, part of applying. A change that
  needs review is never delivered unreviewed: when `workspace/applyEdit` cannot carry it (the
  client cannot apply edits, or cannot create the file), the preview would never show, so the
  user is asked with the prompt instead;
- apply: `workspace/applyEdit` (`apply.py`);
- save: `kesi/saveDocuments` for clients that announce it, else the server's atomic write.

A client that knows nothing of KeSi (no `experimental.kesi`: lsp-mode, eglot, Vim's clients,
plain Neovim, Helix) cannot be asked to save, so it would be left with a modified buffer
beside the server's write, and the editor then asks the user about it (Vim's W12, Emacs'
"changed since visited or saved"). So
there the disk carries every file without the user's own typing (`by_disk`): a file that is
not open is written without opening a buffer for it, an open clean buffer is written on disk
and the editor reloads it ('autoread', auto-revert). Until it does, the buffer is OUTDATED by
the server's own write, and the disk is what the user has: reads and the next edit see it.
Only a buffer holding the user's unsaved typing gets `workspace/applyEdit`, and stays unsaved
(`Saved.IN_BUFFER`): KeSi never saves the user's typing behind their back.

The disk is read in a worker thread (`Documents`), and after each tool (a command may have
changed files) the disk of the open documents is re-read in the background, so the list of
unsaved files the core asks for each turn stays true; `disk` waits for those reads first.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Final

from pygls.exceptions import JsonRpcException

from kesi_lsp.catalog import Locale
from kesi_lsp.core import (
    Delivery,
    DeliveryStatus,
    Drift,
    Event,
    FileChange,
    Landed,
    Route,
    Saved,
    Shown,
    ToolFinished,
    stale_words,
    write_change,
)
from kesi_lsp.lsp.apply import apply_change
from kesi_lsp.lsp.capabilities import ReviewRoute
from kesi_lsp.lsp.documents import BufferState, read_disk, read_disk_or_none
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.wire import ClientGoneError

log = logging.getLogger(__name__)

SAVE_DOCUMENTS: Final = "kesi/saveDocuments"
SAVE_SECONDS: Final = 10.0
_DRIFT: Final = {BufferState.OUTDATED: Drift.OUTDATED, BufferState.CONFLICTED: Drift.CONFLICTED}


class LspPort:
    """The editor port of one run of an LSP client."""

    def __init__(
        self,
        link: EditorLink,
        root: Path,
        locale: Locale,
        on_applied: Callable[[FileChange], None],
    ) -> None:
        self._link = link
        self._root = root
        self.locale = locale
        self._on_applied = on_applied
        self._refreshing: set[asyncio.Task[None]] = set()

    def watch(self, event: Event) -> None:
        """After each tool, re-read the disk of the open documents in the background."""
        if isinstance(event, ToolFinished):
            task = asyncio.ensure_future(self._link.documents.refresh_disk(self._root))
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    def by_disk(self) -> bool:
        """Whether files without the user's typing go by the disk (see the module docstring):
        a client that knows nothing of KeSi. One that announces `experimental.kesi` saves
        through `kesi/saveDocuments` (each of KeSi's own does), or is the wire contract's
        reference client, whose buffers keep today's `workspace/applyEdit` and undo."""
        features = self._link.features
        return features.apply_edit and not features.kesi

    def outdated_by_disk(self, path: Path) -> bool:
        """An open clean buffer the editor has yet to reload from the disk's newer text: the
        disk is what the user has there (a client whose files go by the disk)."""
        state = self._link.documents.disk.state(path)
        return state is BufferState.OUTDATED and self.by_disk()

    async def shown(self, path: Path) -> Shown:
        doc = self._link.documents.open_document(path)
        if doc is not None and not self.outdated_by_disk(path):
            return Shown(doc.source, in_editor=True)
        return Shown(await asyncio.to_thread(read_disk_or_none, path))

    async def disk(self, path: Path) -> str | None:
        """The disk's text, read after the refreshes under way (a command just finished):
        reading it notes a move under a clean buffer (OUTDATED)."""
        if self._refreshing:  # `wait`, not `gather`: a cancel here must not cancel them
            await asyncio.wait(set(self._refreshing))
        return await self._link.documents.read_disk(path)

    def drift(self, path: Path) -> Drift | None:
        if self.outdated_by_disk(path):
            return None  # the edit goes to the disk, not to the buffer that still shows less
        return _DRIFT.get(self._link.documents.disk.state(path))

    def route(self, change: FileChange) -> Route:
        """The client's route; the editor's preview only when applyEdit can carry it."""
        features = self._link.features
        creating = change.before is None
        can_carry = features.apply_edit and (features.create_files or not creating)
        if features.review_route is ReviewRoute.PREVIEW and can_carry:
            return Route.PREVIEW
        return Route.ASK  # our clients' review, or a prompt (never written to disk unseen)

    def reviewing(self, change: FileChange) -> None:
        return None

    async def apply(self, change: FileChange, *, preview: bool) -> Landed | Delivery:
        state = self._link.documents.disk.state(change.path)
        if not preview and self.by_disk() and not state.unsaved:
            return await self._write_disk(change)
        return await apply_change(self._link, change, self._root, self.locale, preview=preview)

    async def _write_disk(self, change: FileChange) -> Landed | Delivery:
        """The server's atomic write, noted at once: an open buffer is OUTDATED by it until
        the editor reloads it."""
        reason = await self.write(change)
        if reason is not None:
            return Delivery(DeliveryStatus.FAILED, reason=reason)
        await self._link.documents.read_disk(change.path)
        return Landed()

    async def save(self, change: FileChange) -> Saved | None:
        """`kesi/saveDocuments`, for clients that announce it; None: the server writes."""
        if self.by_disk() and self._link.documents.disk.state(change.path).unsaved:
            return Saved.IN_BUFFER  # the user's own typing is in it: theirs to save
        if not self._link.features.save_documents:
            return None
        documents, uri = self._link.documents, path_to_uri(change.path)
        try:
            answer = await asyncio.wait_for(
                self._link.wire.request(SAVE_DOCUMENTS, {"uris": [uri]}), SAVE_SECONDS
            )
        except (ClientGoneError, JsonRpcException, TimeoutError) as exc:
            log.info("kesi/saveDocuments failed, saving ourselves: %s", exc)
            return None
        saved = await documents.read_disk(change.path, saved_by_editor=True)
        shown = documents.buffer_text(change.path)
        if saved == change.after or (
            saved not in (None, change.after, change.before) and shown == saved
        ):
            return Saved.BY_EDITOR  # as it is, or as it reformatted it on save
        if uri in _failed_uris(answer):  # e.g. VS Code: "the file on disk is newer"
            log.info("the editor could not save %s; not saving over it", change.rel)
            return Saved.NOT_SAVED
        return None

    async def write(self, change: FileChange) -> str | None:
        return await asyncio.to_thread(
            write_change, change, self._root, self.locale, read=read_disk
        )

    def same(self, a: str | None, b: str | None) -> bool:
        return a == b

    def stale(self, change: FileChange, now: str | None, *, reviewed: bool) -> str:
        return stale_words(change, self.locale, reviewed=reviewed)

    def landed(self, change: FileChange, text: str) -> None:
        self._on_applied(change)


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
