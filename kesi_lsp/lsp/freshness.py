"""Is the change still meant for what the user sees? The checks before (and after) a review.

The core computed the change against the text it read; an await later the user may have
typed, a command may have rewritten the file, or the editor may still show an older text than
the disk. Each check re-reads instead of trusting a flag, and refuses rather than overwrite:

- stale: the text the user sees is no longer the change's `before` (typed meanwhile);
- outdated: the buffer is OUTDATED or CONFLICTED against the disk (`documents.BufferState`):
  saving an edit there would silently undo a command's change, or the user's.

The disk of the open documents is re-read in the background after each tool (a command may
have changed files), so the list of unsaved files the core asks for each turn stays true;
`disk_now` waits for those reads before it reads the disk itself.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from kesi_lsp.catalog import Locale
from kesi_lsp.core import Delivery, Event, FileChange, ToolFinished
from kesi_lsp.lsp.documents import BufferState, Documents
from kesi_lsp.lsp.outcomes import Checked, failed

_OUTDATED = {
    BufferState.OUTDATED: "lsp.edit.disk_moved",  # clean buffer: reload it
    BufferState.CONFLICTED: "lsp.edit.disk_conflict",  # unsaved changes: the user must choose
}


class Freshness:
    """The checks for one run's deliveries, and its background re-reads of the disk."""

    def __init__(self, documents: Documents, root: Path, locale: Locale) -> None:
        self._documents = documents
        self._root = root
        self._locale = locale
        self._refreshing: set[asyncio.Task[None]] = set()

    def watch(self, event: Event) -> None:
        """After each tool, re-read the disk of the open documents in the background."""
        if isinstance(event, ToolFinished):
            task = asyncio.ensure_future(self._documents.refresh_disk(self._root))
            self._refreshing.add(task)
            task.add_done_callback(self._refreshing.discard)

    async def before_review(self, change: FileChange) -> Checked | Delivery:
        disk_before = await self._disk_now(change.path)
        if (outdated := self._outdated(change)) is not None:
            return outdated
        if (stale := await self._stale(change, "lsp.edit.stale")) is not None:
            return stale
        return Checked(disk_before)

    async def after_review(self, change: FileChange) -> Checked | Delivery:
        """The user looked for a while: typing meanwhile is told as such; the disk may have
        moved too."""
        if (stale := await self._stale(change, "lsp.edit.stale_review")) is not None:
            return stale
        disk_before = await self._disk_now(change.path)
        if (outdated := self._outdated(change)) is not None:
            return outdated
        return Checked(disk_before)

    async def _disk_now(self, path: Path) -> str | None:
        """The disk's text, read after the refreshes under way (a command just finished):
        reading it notes a move under a clean buffer (OUTDATED)."""
        if self._refreshing:  # `wait`, not `gather`: a cancel here must not cancel them
            await asyncio.wait(set(self._refreshing))
        return await self._documents.read_disk(path)

    async def _stale(self, change: FileChange, key: str) -> Delivery | None:
        if await self._documents.current_text(change.path) == change.before:
            return None
        if change.before is None:
            return failed("lsp.edit.exists", self._locale, path=change.rel)
        return failed(key, self._locale, path=change.rel)

    def _outdated(self, change: FileChange) -> Delivery | None:
        """Refuse an edit to an open buffer whose file changed on disk since it was loaded."""
        key = _OUTDATED.get(self._documents.disk.state(change.path))
        return failed(key, self._locale, path=change.rel) if key is not None else None
