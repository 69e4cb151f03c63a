"""The editor's text: open documents (unsaved changes included) first, the disk otherwise.

pygls keeps every open document in sync (incremental `didChange`), so the agent can read
exactly what the user sees, with its version. Files the editor has not opened are read from
disk. `unsaved` compares the two, because commands such as `pytest` only ever see the disk.

The disk is only ever touched in a worker thread (`asyncio.to_thread`): a slow or network
filesystem must not freeze the server, whose event loop also answers the editor's requests.
What the disk holds for each open document is remembered (`DiskTexts`), refreshed off the
loop whenever it may have changed, so `unsaved` -- asked synchronously by the core each turn
-- is a comparison in memory.

A command (`ruff format .`, `sed -i`, `git checkout`) can change a file that is open and clean
in the editor. VS Code reloads such a buffer; Neovim without 'autoread' keeps showing the old
text. That buffer has no unsaved changes -- it is *outdated* (`DiskTexts.moved`), and an edit
applied to it and saved would silently undo the command's change, so delivery refuses it.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

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


_UNKNOWN: Final = object()


def _no_buffer(path: Path) -> str | None:
    return None


class DiskTexts:
    """The disk's text of each open document, as last read off the event loop (None: no file
    or unreadable). Shared by all runs of one server.

    A refresh reads in a worker thread while the loop goes on; if the path was noted in the
    meantime (an edit was just saved), the newer note wins over the older read.

    `moved` maps each open document whose disk changed while its buffer still held the
    previous disk text (clean, but now outdated) to that previous text, the one the editor
    loaded. A path leaves it once buffer and disk agree again (the editor reloaded it, or
    saved) or the document is closed. `conflicted` holds the open documents whose disk
    changed while the buffer had unsaved changes of its own: buffer and disk each hold
    something the other lacks, and saving either would lose the other's change. A path leaves
    it when buffer and disk agree again. `buffer_text` gives the open buffer's text for a
    path (None: not open); the server connects it to `Documents.buffer_text` at start.
    """

    def __init__(self) -> None:
        self._texts: dict[Path, str | None] = {}
        self._notes: dict[Path, int] = {}  # how often each path was noted, to spot a newer one
        self.moved: dict[Path, str] = {}
        self.conflicted: set[Path] = set()
        self.buffer_text: Callable[[Path], str | None] = _no_buffer

    async def refresh(self, paths: Iterable[Path], *, written_by_editor: bool = False) -> None:
        """Re-read `paths` (resolved) in a worker thread (`written_by_editor`: after a save)."""
        wanted = list(paths)
        if not wanted:
            return
        stamps = [self._notes.get(p, 0) for p in wanted]
        texts = await asyncio.to_thread(lambda: [read_disk_or_none(p) for p in wanted])
        for path, stamp, text in zip(wanted, stamps, texts, strict=True):
            if self._notes.get(path, 0) == stamp:
                self._store(path, text, written_by_editor=written_by_editor)

    def note(self, path: Path, text: str | None, *, written_by_editor: bool = False) -> None:
        """Remember what was just read from (or written to) the disk at `path` (resolved).

        `written_by_editor`: the editor itself just saved the file, so a new text is its
        write (the user may have typed since), never a sign of someone else's change."""
        self._store(path, text, written_by_editor=written_by_editor)
        self._notes[path] = self._notes.get(path, 0) + 1

    def _store(self, path: Path, text: str | None, *, written_by_editor: bool = False) -> None:
        """Record the disk's new text; note a buffer the disk moved away from (clean: moved;
        with unsaved changes of its own: conflicted)."""
        old = self._texts.get(path, _UNKNOWN)
        self._texts[path] = text
        buffer = self.buffer_text(path)
        if buffer is None or buffer == text or written_by_editor:
            self.moved.pop(path, None)
            self.conflicted.discard(path)
        elif isinstance(old, str) and old != text and buffer == old:
            self.moved[path] = old
        elif isinstance(old, str) and old != text and path not in self.moved:
            self.conflicted.add(path)

    def settle(self, path: Path) -> None:
        """The buffer changed: once it holds the disk's text again, it is no longer outdated;
        typing into an outdated buffer gives it changes of its own (conflicted)."""
        known = self._texts.get(path, _UNKNOWN)
        buffer = self.buffer_text(path)
        if known is not _UNKNOWN and known == buffer:
            self.moved.pop(path, None)
            self.conflicted.discard(path)
        elif path in self.moved and buffer != self.moved[path]:  # typed into an outdated one
            del self.moved[path]
            self.conflicted.add(path)

    def forget(self, path: Path) -> None:
        self._texts.pop(path, None)
        self.moved.pop(path, None)
        self.conflicted.discard(path)

    def differs(self, path: Path, text: str) -> bool:
        """Whether `text` differs from the disk's last known text (unknown: it does not)."""
        known = self._texts.get(path, _UNKNOWN)
        return known is not _UNKNOWN and known != text


class Documents:
    """Look up open documents by filesystem path (the core speaks paths, LSP speaks URIs)."""

    def __init__(self, workspace: Workspace, disk: DiskTexts) -> None:
        self._workspace = workspace
        self.disk = disk

    def buffer_text(self, path: Path) -> str | None:
        """The open buffer's text for `path` (resolved), or None when it is not open."""
        doc = self.open_document(path)
        return doc.source if doc is not None else None

    def open_document(self, path: Path) -> TextDocument | None:
        """The document the editor has open for `path` (resolved), or None."""
        target = path.resolve()
        for doc in self._workspace.text_documents.values():
            if doc.version is not None and doc.path and Path(doc.path).resolve() == target:
                found: TextDocument = doc
                return found
        return None

    def open_paths(self, root: Path) -> list[Path]:
        """The resolved paths of the open documents the agent can see under `root`."""
        found = {
            Path(doc.path).resolve()
            for doc in self._workspace.text_documents.values()
            if doc.version is not None and doc.path
        }
        return sorted(p for p in found if not is_ignored(root, p))

    async def file_text(self, path: Path) -> FileText:
        """The text the user sees for `path`: the buffer when open, else the disk."""
        doc = self.open_document(path)
        if doc is None:
            return FileText(await asyncio.to_thread(read_disk, path))
        text, version = doc.source, doc.version
        resolved, disk = await asyncio.to_thread(lambda: (path.resolve(), read_disk_or_none(path)))
        self.disk.note(resolved, disk)
        unsaved = text != disk and self.disk.moved.get(resolved) != text
        return FileText(text, version, unsaved=unsaved)

    async def refresh_disk(self, root: Path) -> None:
        """Re-read the disk of every open document under `root` (off the event loop)."""
        await self.disk.refresh(self.open_paths(root))

    def unsaved(self, root: Path) -> tuple[Path, ...]:
        """Open documents under `root` whose buffer differs from the disk, sorted.

        Compares with the disk as last read (see `DiskTexts`); no I/O happens here. An
        outdated buffer that still holds what the editor loaded (`DiskTexts.moved`) differs
        too, but holds no unsaved changes.
        """
        found: set[Path] = set()
        for doc in self._workspace.text_documents.values():
            if doc.version is None or not doc.path:
                continue
            path = Path(doc.path).resolve()
            if is_ignored(root, path):  # outside `root`, or invisible to the agent
                continue
            loaded = self.disk.moved.get(path)
            if self.disk.differs(path, doc.source) and doc.source != loaded:
                found.add(path)
        return tuple(sorted(found))
