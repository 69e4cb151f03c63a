"""Workspace folders are the fence: each one gets its own agent session.

A request names a document (or nothing); the folder that contains it decides which session
runs and which directory the tools may touch. Multi-root workspaces get one session per
folder and nothing crosses between them (design §2.3).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import Workspace

from kesi_lsp.core import AgentSettings, ConversationStore, Session


@dataclass(frozen=True)
class Folder:
    """A workspace folder: its URI as the client spelled it, and its resolved path."""

    uri: str
    path: Path
    name: str


def uri_to_path(uri: str) -> Path | None:
    """The filesystem path of a `file:` URI, else None (untitled buffers, remote schemes, and
    `file:///%00`: no path holds a NUL byte, and the OS refuses to look one up)."""
    if not uri.startswith("file:"):
        return None
    fs_path = to_fs_path(uri)
    return Path(fs_path) if fs_path and "\0" not in fs_path else None


def path_to_uri(path: Path) -> str:
    uri = from_fs_path(str(path))
    if not isinstance(uri, str):  # pragma: no cover - from_fs_path only fails for non-paths
        raise ValueError(f"not a filesystem path: {path}")
    return uri


def workspace_folders(workspace: Workspace) -> list[Folder]:
    """The client's folders in order; a bare `rootUri` counts as one folder."""
    found: list[Folder] = []
    for folder in workspace.folders.values():
        path = uri_to_path(folder.uri)
        if path is not None:
            found.append(Folder(folder.uri, path.resolve(), folder.name))
    if not found and workspace.root_uri:
        path = uri_to_path(workspace.root_uri)
        if path is not None:
            found.append(Folder(workspace.root_uri, path.resolve(), path.name))
    return found


def containing_folder(folders: list[Folder], path: Path) -> Folder | None:
    """The innermost folder that contains `path` (resolved), or None when it is outside all."""
    resolved = path.resolve()
    inside = [f for f in folders if resolved == f.path or resolved.is_relative_to(f.path)]
    return max(inside, key=lambda f: len(f.path.parts), default=None)


class Sessions:
    """One `Session` per folder path, created on first use and dropped with the folder.

    With a `store`, a folder's session starts as its saved conversation (resume), and every
    round of it is saved; `forget` (kesi.reset) deletes the saved one too. `on_new` sees each
    session as it is created (the server connects its change sets to the editor's buffers
    there).
    """

    def __init__(
        self,
        store: ConversationStore | None = None,
        on_new: Callable[[Session], None] | None = None,
    ) -> None:
        self._by_root: dict[Path, Session] = {}
        self.store = store
        self.on_new = on_new

    async def open(self, folder: Folder, settings: AgentSettings) -> Session:
        """The folder's session; the first time, its saved conversation is read back (off the
        event loop) and the notices of that wait for its first run."""
        session = self._by_root.get(folder.path)
        if session is not None:
            return session
        fresh = Session(root=folder.path, settings=settings)
        if self.store is not None:
            await asyncio.to_thread(self.store.open, fresh)
        session = self._by_root.get(folder.path)
        if session is not None:  # opened by another caller during the read
            return session
        self._by_root[folder.path] = fresh
        if self.on_new is not None:
            self.on_new(fresh)
        return fresh

    def all(self) -> list[Session]:
        return list(self._by_root.values())

    def peek(self, folder: Folder) -> Session | None:
        return self._by_root.get(folder.path)

    def forget(self, folder: Folder) -> None:
        """Forget the conversation (seed /reset): in memory, and the saved file."""
        session = self._by_root.get(folder.path)
        if session is not None:
            session.reset()
            session.notices.clear()
        if self.store is not None:
            self.store.forget(folder.path)

    def drop(self, root: Path) -> None:
        """The folder went away: its session goes, its background tasks are stopped."""
        session = self._by_root.pop(root, None)
        if session is not None:
            session.tasks.stop_all_soon()

    async def stop_tasks(self) -> None:
        """Stop every session's background tasks (shutdown), each the seed's way."""
        for session in self.all():
            await session.tasks.stop_all()

    def kill_tasks(self) -> None:
        """SIGKILL every session's background tasks at once (exit)."""
        for session in self.all():
            session.tasks.kill_all()
