"""Workspace folders are the fence: each one gets its own agent session.

A request names a document (or nothing); the folder that contains it decides which session
runs and which directory the tools may touch. Multi-root workspaces get one session per
folder and nothing crosses between them (design §2.3).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import Workspace

from kesi_lsp.core import AgentSettings, Session


@dataclass(frozen=True)
class Folder:
    """A workspace folder: its URI as the client spelled it, and its resolved path."""

    uri: str
    path: Path
    name: str


def uri_to_path(uri: str) -> Path | None:
    """The filesystem path of a `file:` URI, else None (untitled buffers, remote schemes)."""
    if not uri.startswith("file:"):
        return None
    fs_path = to_fs_path(uri)
    return Path(fs_path) if fs_path else None


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

    `on_new` sees each session as it is created (the server connects its change sets to the
    editor's buffers there)."""

    def __init__(self, on_new: Callable[[Session], None] | None = None) -> None:
        self._by_root: dict[Path, Session] = {}
        self.on_new = on_new

    def get(self, folder: Folder, settings: AgentSettings) -> Session:
        session = self._by_root.get(folder.path)
        if session is None:
            session = Session(root=folder.path, settings=settings)
            self._by_root[folder.path] = session
            if self.on_new is not None:
                self.on_new(session)
        return session

    def all(self) -> list[Session]:
        return list(self._by_root.values())

    def peek(self, folder: Folder) -> Session | None:
        return self._by_root.get(folder.path)

    def drop(self, root: Path) -> None:
        self._by_root.pop(root, None)
