"""The editor's open documents, and what the user does with them.

An editor applies `workspace/applyEdit` to its buffers, not to the disk; the file on disk
changes when the buffer is saved. `Buffers` keeps that distinction, so the server sees exactly
what it would see from a real editor: didOpen, didChange with the next version (ranged
changes, or the whole text as Neovim reports it), didSave after the disk holds the text.

Each buffer remembers the disk text it was loaded from (or saved as): `check_disk` is the
editor's next look at its files (Vim's 'autoread' check, Emacs' auto-revert, and the check
before a save), which reloads a clean buffer whose file moved and asks the user a question
(Vim's W12, Emacs' "changed since visited or saved") for a modified one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types
from pygls.uris import to_fs_path

from kesi_lsp.testing.presets import Preset
from kesi_lsp.testing.text import end_of, position_at

LANGUAGES = {".py": "python", ".md": "markdown", ".toml": "toml", ".json": "json"}


class DocumentSync(Protocol):
    """The notifications a buffer sends (pygls' `LanguageClient` has them)."""

    def text_document_did_open(self, params: types.DidOpenTextDocumentParams) -> None: ...
    def text_document_did_change(self, params: types.DidChangeTextDocumentParams) -> None: ...
    def text_document_did_save(self, params: types.DidSaveTextDocumentParams) -> None: ...
    def text_document_did_close(self, params: types.DidCloseTextDocumentParams) -> None: ...


@dataclass
class Buffer:
    """One open document."""

    path: Path
    uri: str
    text: str
    version: int = 1
    dirty: bool = False
    undo: list[tuple[str, str]] = field(default_factory=list)  # (label, text before)
    loaded: str | None = None  # the disk's text when last loaded or saved (None: no file)
    hidden: bool = False  # loaded, but shown in no window (vim-lsp reports no change to it)


class Buffers(dict[str, Buffer]):
    """Open buffers by URI; `encoding` returns the position encoding in use."""

    def __init__(self, preset: Preset, sync: DocumentSync, encoding: Callable[[], str]) -> None:
        super().__init__()
        self.preset = preset
        self._sync = sync
        self._encoding = encoding

    def uri(self, path: Path) -> str:
        return path.resolve().as_uri()

    def open(self, path: Path, language: str | None = None, *, hidden: bool = False) -> Buffer:
        """Open `path` in a buffer (read from the disk; empty if it does not exist): didOpen.
        `hidden`: the buffer is loaded but in no window (the user switched away from it)."""
        data = path.read_bytes().decode("utf-8") if path.exists() else None
        buffer = Buffer(path.resolve(), self.uri(path), self.preset.read(data or ""))
        buffer.loaded, buffer.hidden = data, hidden
        self[buffer.uri] = buffer
        self._sync.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=buffer.uri,
                    language_id=language or LANGUAGES.get(path.suffix, "plaintext"),
                    version=buffer.version,
                    text=buffer.text,
                )
            )
        )
        return buffer

    def for_uri(self, uri: str) -> Buffer:
        """The open buffer for `uri`; an edit to a file not open opens it (VS Code, Neovim)."""
        if uri not in self:  # vim-lsp loads it in a hidden buffer
            self.open(Path(to_fs_path(uri) or ""), hidden=self.preset.silent_hidden_edits)
        return self[uri]

    def type_text(self, path: Path, old: str, new: str) -> None:
        """The user replaces the first `old` with `new` in the open buffer (unsaved)."""
        buffer = self[self.uri(path)]
        start = buffer.text.index(old)
        encoding = self._encoding()
        rng = types.Range(
            start=position_at(buffer.text, start, encoding),
            end=position_at(buffer.text, start + len(old), encoding),
        )
        self.change(buffer, [types.TextEdit(range=rng, new_text=new)], dirty=True)

    def save(self, path: Path) -> None:
        """The user saves the buffer of `path`: the disk gets its text, then didSave."""
        buffer = self[self.uri(path)]
        data = self.preset.written(buffer.text)
        buffer.path.write_bytes(data.encode("utf-8"))
        buffer.dirty, buffer.loaded = False, data
        self._sync.text_document_did_save(
            types.DidSaveTextDocumentParams(
                text_document=types.TextDocumentIdentifier(uri=buffer.uri)
            )
        )

    def close(self, path: Path) -> None:
        """The user closes the buffer of `path` (its unsaved text goes with it)."""
        uri = self.uri(path)
        if self.pop(uri, None) is not None:
            self._sync.text_document_did_close(
                types.DidCloseTextDocumentParams(
                    text_document=types.TextDocumentIdentifier(uri=uri)
                )
            )

    def reload(self, path: Path) -> None:
        """The user reloads the buffer from disk (`:edit!`, VS Code's auto-reload)."""
        buffer = self[self.uri(path)]
        data = path.read_bytes().decode("utf-8")
        self.reshape(buffer, self.preset.read(data))
        buffer.dirty, buffer.loaded = False, data

    def check_disk(self) -> list[Path]:
        """The editor looks at its files again ('autoread', auto-revert, a save's check): a
        clean buffer whose file moved is reloaded; a modified one gets the user a question.
        Returns the files it asked about."""
        asked: list[Path] = []
        for buffer in list(self.values()):
            data = buffer.path.read_bytes().decode("utf-8") if buffer.path.exists() else None
            if data is None or data == buffer.loaded:
                continue
            if buffer.dirty:
                asked.append(buffer.path)
            else:
                self.reload(buffer.path)
        return asked

    def modified(self) -> list[Path]:
        """The files whose buffer holds changes not saved."""
        return [buffer.path for buffer in self.values() if buffer.dirty]

    def change(
        self, buffer: Buffer, changes: Sequence[Any], *, dirty: bool, label: str = ""
    ) -> None:
        """Apply `changes` (text edits) the preset's way and tell the server (didChange);
        `label` puts the text before on the undo list."""
        before = buffer.text
        buffer.text = self.preset.apply_edits(before, changes, self._encoding())
        buffer.version += 1
        buffer.dirty = buffer.dirty or dirty
        if label:
            buffer.undo.append((label, before))
        if buffer.hidden and self.preset.silent_hidden_edits:
            return  # vim-lsp: no didChange for a buffer in no window
        reported: list[types.TextDocumentContentChangeEvent] = [
            types.TextDocumentContentChangePartial(range=e.range, text=e.new_text)
            for e in sorted(
                changes, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True
            )
        ]
        if self.preset.edit_model == "neovim":  # it reports what its buffer now holds
            reported = [types.TextDocumentContentChangeWholeDocument(text=buffer.text)]
        self._sync.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(
                    uri=buffer.uri, version=buffer.version
                ),
                content_changes=reported,
            )
        )

    def reshape(self, buffer: Buffer, text: str) -> None:
        """Replace the whole buffer with `text` (a save participant's edit), if it differs."""
        if text == buffer.text:
            return
        whole = types.Range(
            start=types.Position(line=0, character=0), end=end_of(buffer.text, self._encoding())
        )
        self.change(buffer, [types.TextEdit(range=whole, new_text=text)], dirty=True)
