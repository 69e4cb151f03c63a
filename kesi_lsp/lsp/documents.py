"""The editor's text: open documents (unsaved changes included) first, the disk otherwise.

pygls keeps every open document in sync (incremental `didChange`), so the agent can read
exactly what the user sees, with its version. Files the editor has not opened are read from
disk. `unsaved` compares the two, because commands such as `pytest` only ever see the disk.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from pygls.workspace import TextDocument, Workspace

from kesi_lsp.core.paths import is_ignored
from kesi_lsp.core.workspace import FileText


def read_disk(path: Path) -> str:
    """The file's text exactly as stored (no newline translation); raises like `open`."""
    return path.read_bytes().decode("utf-8")


def read_disk_or_none(path: Path) -> str | None:
    try:
        return read_disk(path)
    except (OSError, UnicodeDecodeError):
        return None


def write_atomic(path: Path, content: str) -> None:
    """Replace `path` with `content` in one step: a reader sees the old file or the new one.

    The temporary file lives next to the target so the final rename stays on one filesystem;
    an existing file keeps its permission bits.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".kesi-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(content.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            Path(tmp).chmod(mode)
        Path(tmp).replace(path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Documents:
    """Look up open documents by filesystem path (the core speaks paths, LSP speaks URIs)."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace

    def open_document(self, path: Path) -> TextDocument | None:
        """The document the editor has open for `path` (resolved), or None."""
        target = path.resolve()
        for doc in self._workspace.text_documents.values():
            if doc.version is not None and doc.path and Path(doc.path).resolve() == target:
                found: TextDocument = doc
                return found
        return None

    def file_text(self, path: Path) -> FileText:
        """The text the user sees for `path`: the buffer when open, else the disk."""
        doc = self.open_document(path)
        if doc is None:
            return FileText(read_disk(path))
        text = doc.source
        return FileText(text, doc.version, unsaved=text != read_disk_or_none(path))

    def unsaved(self, root: Path) -> tuple[Path, ...]:
        """Open documents under `root` whose buffer differs from the disk, sorted."""
        found: set[Path] = set()
        for doc in self._workspace.text_documents.values():
            if doc.version is None or not doc.path:
                continue
            path = Path(doc.path).resolve()
            if is_ignored(root, path):  # outside `root`, or invisible to the agent
                continue
            if doc.source != read_disk_or_none(path):
                found.add(path)
        return tuple(sorted(found))
