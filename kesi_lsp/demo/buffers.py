"""The demo editor's open documents: text in memory, a version, a dirty flag.

An editor applies `workspace/applyEdit` to its buffers, not to the disk; the file on disk
changes when the buffer is saved. The demo keeps that distinction so KeSi's server sees exactly
what it would see from VS Code or Neovim: didOpen, didChange with the new version, didSave.
Positions are UTF-16 code units, LSP's default encoding.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


@dataclass
class Buffer:
    """One open document."""

    path: Path
    uri: str
    text: str
    version: int = 1
    dirty: bool = False


def _utf16_units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def offset_at(text: str, position: types.Position) -> int:
    """The string index of an LSP position (UTF-16), clamped to the line like editors do."""
    lines = _LINE.findall(text)
    if position.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line].rstrip("\r\n")
    column = 0
    while column < len(line) and _utf16_units(line[: column + 1]) <= position.character:
        column += 1
    return start + column


def apply_text_edits(text: str, edits: Sequence[types.TextEdit]) -> str:
    """Apply LSP text edits (all relative to `text`), last first so offsets stay valid."""
    spans = sorted(
        ((offset_at(text, e.range.start), offset_at(text, e.range.end), e.new_text) for e in edits),
        key=lambda span: span[0],
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


def whole_line(text: str, line: int) -> types.Range:
    """The range of 0-based `line` without its line ending (what an editor underlines)."""
    lines = _LINE.findall(text)
    content = lines[line].rstrip("\r\n") if line < len(lines) else ""
    indent = len(content) - len(content.lstrip())
    return types.Range(
        start=types.Position(line=line, character=_utf16_units(content[:indent])),
        end=types.Position(line=line, character=_utf16_units(content)),
    )
