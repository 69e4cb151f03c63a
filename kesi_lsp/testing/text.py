"""Text the LSP way: positions in code units of an encoding, and `TextEdit`s applied to a string.

This is the specification's model of a document (one string; lines end with LF, CR LF or CR;
a position past a line's end is clamped to it), which VS Code, Emacs and Helix follow. Neovim
holds a buffer differently (`kesi_lsp.testing.vim`). UTF-16 is LSP's default encoding, so it
is the default here too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from lsprotocol import types

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def code_units(text: str, encoding: str = "utf-16") -> int:
    """The length of `text` in the code units of an LSP position encoding."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def column(line: str, character: int, encoding: str = "utf-16") -> int:
    """The string index `character` code units into `line`, clamped to its length."""
    if encoding == "utf-32" or line.isascii():  # one code unit per character
        return max(0, min(character, len(line)))
    units = 0
    for index, char in enumerate(line):
        units += code_units(char, encoding)
        if units > character:
            return index
    return len(line)


def offset_at(text: str, position: types.Position, encoding: str = "utf-16") -> int:
    """The string index of an LSP position (clamped like editors clamp)."""
    if "\r" not in text:  # LF only: find the line without splitting the whole text
        parts = text.split("\n", position.line)
        if len(parts) <= position.line:
            return len(text)
        start = len(text) - len(parts[-1])
        return start + column(parts[-1].split("\n", 1)[0], position.character, encoding)
    lines = _LINE.findall(text)
    if position.line >= len(lines):
        return len(text)
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line].rstrip("\r\n")
    return start + column(line, position.character, encoding)


def position_at(text: str, offset: int, encoding: str = "utf-16") -> types.Position:
    """The LSP position of string index `offset`."""
    before = text[:offset]
    lines = _LINE.findall(before)
    if not lines or lines[-1].endswith(("\n", "\r")):
        return types.Position(line=len(lines), character=0)
    return types.Position(line=len(lines) - 1, character=code_units(lines[-1], encoding))


def end_of(text: str, encoding: str = "utf-16") -> types.Position:
    """The position just after the last character of `text`."""
    return position_at(text, len(text), encoding)


def apply_text_edits(text: str, edits: Sequence[Any], encoding: str = "utf-16") -> str:
    """`text` after `edits` (all relative to `text`), applied last first so offsets hold."""
    spans = sorted(
        (
            (offset_at(text, e.range.start, encoding), offset_at(text, e.range.end, encoding), e)
            for e in edits
        ),
        key=lambda item: item[0],
        reverse=True,
    )
    for start, end, edit in spans:
        text = text[:start] + edit.new_text + text[end:]
    return text


def whole_line(text: str, line: int, encoding: str = "utf-16") -> types.Range:
    """The range of 0-based `line` without its indent and line ending (what an editor
    underlines for a diagnostic on that line)."""
    lines = _LINE.findall(text)
    content = lines[line].rstrip("\r\n") if line < len(lines) else ""
    indent = len(content) - len(content.lstrip())
    return types.Range(
        start=types.Position(line=line, character=code_units(content[:indent], encoding)),
        end=types.Position(line=line, character=code_units(content, encoding)),
    )
