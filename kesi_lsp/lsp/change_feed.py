"""The editor's side of the change sets: its typing in, diagnostics and lens refreshes out.

Each session's `ChangeSets` (design §2.9) is connected here to the editor's open documents (it
reads a buffer's text when it needs it) and told every text change before pygls applies it
(`before_change`, from `protocol.py`): a few comparisons per hunk of that file, nothing more, so
typing in a big file stays cheap. Whenever hunks change, their files' pending hunks are
published again as diagnostics (or, to a client that shows them itself, `kesi/hunks`) and
clients that can are asked to refresh their code lenses -- once the typing pauses, so a burst
of keystrokes costs one publication (bench/changes.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Final

from lsprotocol import types

from kesi_lsp.catalog import DEFAULT_LOCALE, Locale
from kesi_lsp.core import ChangeSets, FileChanges, Session, TextChange
from kesi_lsp.lsp.change_listing import pending_views
from kesi_lsp.lsp.change_marks import diagnostics
from kesi_lsp.lsp.contract import HunksChangedParams
from kesi_lsp.lsp.documents import read_disk_or_none
from kesi_lsp.lsp.folders import path_to_uri, uri_to_path
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.verdict_feed import VerdictFeed

log = logging.getLogger(__name__)

PUBLISH_QUIET: Final = 0.1  # seconds without a change before the marks are published again
HUNKS: Final = "kesi/hunks"


class ChangeFeed:
    """Connects the sessions' change sets to one client's documents and marks."""

    def __init__(self, link: EditorLink, sessions: Callable[[], list[Session]]) -> None:
        self._link = link
        self._sessions = sessions
        self._paths: dict[str, Path | None] = {}
        self._dirty: set[Path] = set()
        self._flushing: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._published: set[Path] = set()
        self._verdicts = VerdictFeed(link, sessions)

    # --- connecting ---

    def attach(self, session: Session) -> None:
        """A new session: its change sets read the editor's buffers and tell us of changes."""
        changes = session.changes
        changes.live_text = self._link.documents.buffer_text
        changes.listeners.append(self.changed)

    def path_of(self, uri: str) -> Path | None:
        if uri not in self._paths:
            path = uri_to_path(uri)
            self._paths[uri] = path.resolve() if path is not None else None
        return self._paths[uri]

    def tracking(self, path: Path) -> list[ChangeSets]:
        return [s.changes for s in self._sessions() if s.changes.tracks(path)]

    # --- the editor's typing ---

    def before_change(self, uri: str, change: types.TextDocumentContentChangeEvent) -> None:
        path = self.path_of(uri)
        if path is None:
            return
        tracked = self.tracking(path)
        if not tracked:
            return
        if isinstance(change, types.TextDocumentContentChangePartial):
            r = change.range
            moved = TextChange(
                r.start.line, r.start.character, r.end.line, r.end.character, change.text
            )
            for changes in tracked:
                changes.user_change(path, moved)
            return
        old = self._link.documents.buffer_text(path) or ""
        for changes in tracked:
            changes.replaced(path, old, change.text)

    def before_close(self, uri: str) -> None:
        path = self.path_of(uri)
        if path is None:
            return
        for changes in self.tracking(path):
            changes.closed(path, self._link.documents.buffer_text(path))

    def opened(self, uri: str) -> None:
        path = self.path_of(uri)
        if path is None:
            return
        for changes in self.tracking(path):
            changes.opened(path)
        if self.tracking(path):
            self.changed(frozenset((path,)))

    # --- marks ---

    def changed(self, paths: frozenset[Path]) -> None:
        """Hunks of `paths` changed: publish them again once the typing pauses, so a burst of
        keystrokes costs one publication and none while the keys still come (editors move
        the marks they show with the text meanwhile, as they do for every server's)."""
        self._dirty |= paths
        if self._flushing is not None:
            self._flushing.cancel()
        loop = asyncio.get_running_loop()
        self._flushing = loop.call_later(PUBLISH_QUIET, self._flush)

    def _flush(self) -> None:
        self._flushing = None
        paths, self._dirty = self._dirty, set()
        task = asyncio.ensure_future(self.publish(paths))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def publish(self, paths: set[Path]) -> None:
        """Settle `paths` against their text and publish their pending hunks (or none)."""
        for path in sorted(paths):
            try:
                await self._publish_one(path)
            except Exception:
                log.exception("publishing KeSi's changes of %s failed", path)
        self._verdicts.check()  # an undo (or a redo) may change a run's verdict
        if self._link.features.code_lens_refresh and paths:
            await self._refresh_lenses()

    async def text_now(self, changes: ChangeSets, path: Path) -> str | None:
        """What `path` holds now (the buffer, else the disk, read off the loop); the hunks are
        settled against it."""
        disk = None
        if changes.needs_disk(path):
            disk = await asyncio.to_thread(read_disk_or_none, path)
        changes.settle(path, disk)
        return changes.last_text(path)

    async def _publish_one(self, path: Path) -> None:
        tracking: list[ChangeSets] = []
        files: list[FileChanges] = []
        text: str | None = None
        locale: Locale = DEFAULT_LOCALE
        for session in self._sessions():
            if session.changes.tracks(path):
                text = await self.text_now(session.changes, path)
                tracking.append(session.changes)
                files.extend(session.changes.files_at(path))
                locale = session.settings.locale
        if not files and path not in self._published:
            return
        doc = self._link.documents.open_document(path)
        uri = doc.uri if doc is not None else path_to_uri(path)
        if self._link.features.hunks:
            self._notify_hunks(uri, path, tracking, text, locale)
            return
        found = diagnostics(files, self._link.codec, locale) if text is not None else []
        self._mark_published(path, bool(found))
        params = types.PublishDiagnosticsParams(uri=uri, diagnostics=found)
        self._link.wire.notify(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

    def _notify_hunks(
        self,
        uri: str,
        path: Path,
        tracking: list[ChangeSets],
        text: str | None,
        locale: Locale,
    ) -> None:
        """`kesi/hunks` for a client that shows pending hunks itself: no diagnostics, so
        VS Code lists no Problems for them (issue 32)."""
        codec = self._link.codec
        found = pending_views(tracking, path, text, codec, locale) if text is not None else []
        self._mark_published(path, bool(found))
        params = HunksChangedParams(uri=uri, hunks=found)
        self._link.wire.notify(HUNKS, params)

    def _mark_published(self, path: Path, anything: bool) -> None:
        """Remember which paths show marks, so the last one going is published too."""
        if anything:
            self._published.add(path)
        else:
            self._published.discard(path)

    async def _refresh_lenses(self) -> None:
        try:
            await self._link.wire.request(types.WORKSPACE_CODE_LENS_REFRESH, None)
        except Exception as exc:  # a refresh is a courtesy; the next lens request is right
            log.debug("codeLens/refresh failed: %s", exc)

    async def settled(self) -> None:
        """Wait for the publications under way (tests and commands that report after them)."""
        if self._flushing is not None:
            self._flushing.cancel()
            self._flush()
        if self._tasks:
            await asyncio.wait(set(self._tasks))
