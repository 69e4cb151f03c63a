"""The editor's text: open documents (unsaved changes included) first, the disk otherwise.

pygls keeps every open document in sync (incremental `didChange`), so the agent can read
exactly what the user sees, with its version. Files the editor has not opened are read from
disk. `unsaved` compares the two, because commands such as `pytest` only ever see the disk.

The disk is only ever touched in a worker thread (`asyncio.to_thread`): a slow or network
filesystem must not freeze the server, whose event loop also answers the editor's requests.
What the disk holds for each open document is remembered (`DiskTexts`), refreshed off the
loop whenever it may have changed, so `unsaved` -- asked synchronously by the core each turn
-- is a comparison in memory.

Each open document is in one `BufferState` at a time, and `DiskTexts.state` is the one place
that says which. A command (`ruff format .`, `sed -i`, `git checkout`) can change a file that is
open and clean in the editor. VS Code reloads such a buffer; Neovim without 'autoread' keeps
showing the old text. That buffer has no unsaved changes -- it is OUTDATED, and an edit applied
to it and saved would silently undo the command's change, so delivery refuses it; likewise a
CONFLICTED one, whose disk moved while it held unsaved changes of its own.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from pygls.workspace import PositionCodec, TextDocument, Workspace

from kesi_lsp.core import FileText, is_ignored


def read_disk(path: Path) -> str:
    """The file's text exactly as stored (no newline translation); raises like `open`."""
    return path.read_bytes().decode("utf-8")


def read_disk_or_none(path: Path) -> str | None:
    try:
        return read_disk(path)
    except (OSError, UnicodeDecodeError):
        return None


class BufferState(enum.Enum):
    """Where an open document stands against the disk (a file that is not open is CLOSED)."""

    CLOSED = "closed"  # not open in the editor: the disk is the truth
    CLEAN = "clean"  # the buffer holds what the disk holds (or the disk was not read yet)
    UNSAVED = "unsaved"  # the user's own typing, not saved yet
    OUTDATED = "outdated"  # clean, but the disk moved away under it (the editor did not reload)
    CONFLICTED = "conflicted"  # the disk moved while the buffer held unsaved changes

    @property
    def unsaved(self) -> bool:
        """Whether the buffer holds changes the disk lacks (what the model is told)."""
        return self in (BufferState.UNSAVED, BufferState.CONFLICTED)


@dataclass(frozen=True)
class _Away:
    """The disk moved away from an open buffer. `loaded`: the text the editor loaded, which an
    OUTDATED buffer still shows (None for a CONFLICTED one)."""

    state: BufferState
    loaded: str | None = None


_UNKNOWN: Final = object()


def _no_buffer(path: Path) -> str | None:
    return None


class DiskTexts:
    """The disk's text of each open document, as last read off the event loop (None: no file
    or unreadable), and each document's `BufferState`. Shared by all runs of one server.

    A refresh reads in a worker thread while the loop goes on; if the path was noted in the
    meantime (an edit was just saved), the newer note wins over the older read.

    A document becomes OUTDATED when its disk changes while the buffer still holds the previous
    disk text, CONFLICTED when the disk changes under unsaved changes of its own (buffer and
    disk each hold something the other lacks, and saving either would lose the other's change)
    or when the user types into an OUTDATED buffer. Either ends once buffer and disk agree
    again (the editor reloaded or saved it) or the document is closed. `buffer_text` gives the
    open buffer's text for a path (None: not open); `Documents` connects itself there.
    """

    def __init__(self, buffer_text: Callable[[Path], str | None] = _no_buffer) -> None:
        self._texts: dict[Path, str | None] = {}
        self._notes: dict[Path, int] = {}  # how often each path was noted, to spot a newer one
        self._away: dict[Path, _Away] = {}
        self.buffer_text = buffer_text

    def state(self, path: Path) -> BufferState:
        """The state of the document open at `path` (resolved), from what is known now."""
        return self.state_of(path, self.buffer_text(path))

    def state_of(self, path: Path, buffer: str | None) -> BufferState:
        """`state`, given the buffer's text (None: not open) when the caller has it at hand."""
        if buffer is None:
            return BufferState.CLOSED
        away = self._away.get(path)
        if away is not None:
            return away.state
        known = self._texts.get(path, _UNKNOWN)
        return BufferState.CLEAN if known is _UNKNOWN or known == buffer else BufferState.UNSAVED

    def loaded(self, path: Path) -> str | None:
        """The text an OUTDATED buffer still shows (what the editor loaded), else None."""
        away = self._away.get(path)
        return away.loaded if away is not None else None

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
        """Record the disk's new text, and what it means for the buffer's state."""
        old = self._texts.get(path, _UNKNOWN)
        self._texts[path] = text
        buffer = self.buffer_text(path)
        if buffer is None or buffer == text or written_by_editor:
            self._away.pop(path, None)
        elif not isinstance(old, str) or old == text:
            return  # the disk did not move
        elif buffer == old:
            self._away[path] = _Away(BufferState.OUTDATED, loaded=old)
        elif self.state(path) is not BufferState.OUTDATED:  # it stays OUTDATED when moved again
            self._away[path] = _Away(BufferState.CONFLICTED)

    def settle(self, path: Path) -> None:
        """The buffer changed: once it holds the disk's text again, it is no longer OUTDATED or
        CONFLICTED; typing into an OUTDATED buffer gives it changes of its own (CONFLICTED)."""
        known = self._texts.get(path, _UNKNOWN)
        buffer = self.buffer_text(path)
        if known is not _UNKNOWN and known == buffer:
            self._away.pop(path, None)
        elif self.state(path) is BufferState.OUTDATED and buffer != self.loaded(path):
            self._away[path] = _Away(BufferState.CONFLICTED)

    def forget(self, path: Path) -> None:
        self._texts.pop(path, None)
        self._away.pop(path, None)

    def differs(self, path: Path, text: str) -> bool:
        """Whether `text` differs from the disk's last known text (unknown: it does not)."""
        known = self._texts.get(path, _UNKNOWN)
        return known is not _UNKNOWN and known != text


class Documents:
    """Look up open documents by filesystem path (the core speaks paths, LSP speaks URIs).

    Built once per server; `workspace` gives pygls' workspace, which exists from `initialize`
    on. Its `disk` is connected to the buffers here, so every state it reports is current.
    """

    def __init__(self, workspace: Callable[[], Workspace]) -> None:
        self._workspace = workspace
        self.disk = DiskTexts(self.buffer_text)

    @property
    def codec(self) -> PositionCodec:
        """The position encoding the client negotiated (UTF-16 unless it asked otherwise)."""
        return self._workspace().position_codec

    def buffer_text(self, path: Path) -> str | None:
        """The open buffer's text for `path` (resolved), or None when it is not open."""
        doc = self.open_document(path)
        return doc.source if doc is not None else None

    def open_document(self, path: Path) -> TextDocument | None:
        """The document the editor has open for `path` (resolved), or None."""
        target = path.resolve()
        for doc in self._workspace().text_documents.values():
            if doc.version is not None and doc.path and Path(doc.path).resolve() == target:
                found: TextDocument = doc
                return found
        return None

    def open_paths(self, root: Path) -> list[Path]:
        """The resolved paths of the open documents the agent can see under `root`."""
        found = {
            Path(doc.path).resolve()
            for doc in self._workspace().text_documents.values()
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
        return FileText(text, version, unsaved=self.disk.state(resolved).unsaved)

    async def current_text(self, path: Path) -> str | None:
        """What the user sees for `path` now (None: no such file), without noting the disk."""
        doc = self.open_document(path)
        if doc is not None:
            return doc.source
        return await asyncio.to_thread(read_disk_or_none, path)

    async def read_disk(self, path: Path, *, saved_by_editor: bool = False) -> str | None:
        """Read the disk (off the loop) and note it; after the editor's own save the new text
        is the editor's write, never a sign that something else changed the file."""
        text = await asyncio.to_thread(read_disk_or_none, path)
        self.disk.note(path, text, written_by_editor=saved_by_editor)
        return text

    async def refresh_disk(self, root: Path) -> None:
        """Re-read the disk of every open document under `root` (off the event loop)."""
        await self.disk.refresh(self.open_paths(root))

    def unsaved(self, root: Path) -> tuple[Path, ...]:
        """Open documents under `root` whose buffer holds changes the disk lacks, sorted.

        Compares with the disk as last read (see `DiskTexts`); no I/O happens here. An
        OUTDATED buffer differs from the disk too, but holds no unsaved changes.
        """
        found: set[Path] = set()
        for doc in self._workspace().text_documents.values():
            if doc.version is None or not doc.path:
                continue
            path = Path(doc.path).resolve()
            if is_ignored(root, path):  # outside `root`, or invisible to the agent
                continue
            if self.disk.state_of(path, doc.source).unsaved:
                found.add(path)
        return tuple(sorted(found))
