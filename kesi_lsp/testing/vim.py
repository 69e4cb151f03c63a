"""How Neovim 0.11 holds a file and applies `TextEdit`s, for the Neovim-like scripted editors.

Neovim does not keep a document as one string the way the LSP specification describes it: a
buffer is a list of lines without their endings, plus the `'eol'` flag (the file ended with a
newline) and the file format (LF or CR LF). Its LSP client reports the text as the lines
joined, plus one more ending when `'eol'` is set, so an empty file reads as "\\n". Its
`vim.lsp.util.apply_text_edits` (runtime/lua/vim/lsp/util.lua) has its own rules for ranges
at or past the last line: an edit starting past the last line appends the new text's lines
(keeping a trailing empty piece as a line), an edit ending past it is clipped to the last
line and then a final empty line is dropped (`fix_eol`), and an edit ending past a line's end
with text ending in a newline loses that newline.

`VimBuffer` is a faithful port of those rules (columns are bytes, as in Lua). The test
`tests/lsp/test_neovim_edits.py` checks it against the real `nvim`, edit for edit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kesi_lsp.testing.text import column


def _byte_col(line: str, character: int, encoding: str) -> int:
    """`get_line_byte_from_position`: the byte column of `character` units, clamped."""
    if character <= 0:
        return 0
    if encoding == "utf-8":
        return min(character, len(line.encode("utf-8")))
    return len(line[: column(line, character, encoding)].encode("utf-8"))


@dataclass
class VimBuffer:
    """A Neovim buffer: its lines (no endings), `'eol'` and the file format's line ending.

    `empty` is Vim's "no lines at all" state (shown as one empty line): a file read empty,
    or a buffer whose every line was deleted. `:write` stores nothing for it, where a buffer
    holding one empty line gets a newline.
    """

    lines: list[str]
    eol: bool
    ending: str = "\n"
    empty: bool = False

    @classmethod
    def of(cls, text: str) -> VimBuffer:
        """The buffer whose LSP text is `text` (CR LF when every line ends so, like 'ffs')."""
        ending = "\r\n" if "\n" in text and text.count("\r\n") == text.count("\n") else "\n"
        eol = text.endswith(ending)
        body = text[: -len(ending)] if eol else text
        return cls(body.split(ending), eol, ending)

    @classmethod
    def read(cls, data: str) -> VimBuffer:
        """The buffer `:edit` makes of a file holding `data`: an empty file is one empty line
        with `'eol'` set (reported to the server as "\\n")."""
        buffer = cls.of(data or "\n")
        buffer.empty = not data
        return buffer

    def text(self) -> str:
        """What Neovim's LSP client sends as the document's text."""
        return self.ending.join(self.lines) + (self.ending if self.eol else "")

    def disk(self) -> str:
        """What `:write` stores (`'fixeol'` on, the default; an empty buffer is an empty file)."""
        if self.empty:
            return ""
        return self.ending.join(self.lines) + self.ending

    def apply(self, edits: Sequence[Any], encoding: str) -> None:
        """`vim.lsp.util.apply_text_edits`, rule for rule."""
        ordered = sorted(
            enumerate(edits),
            key=lambda item: (item[1].range.start.line, item[1].range.start.character, item[0]),
            reverse=True,
        )
        has_eol_edit = False
        for _, edit in ordered:
            has_eol_edit = self._apply_one(edit, encoding) or has_eol_edit
            self.empty = False
        if has_eol_edit and self.lines[-1] == "":  # fix_eol ('eol' or 'fixeol' holds)
            del self.lines[-1]
            self.empty = not self.lines
            self.lines = self.lines or [""]

    def _apply_one(self, edit: Any, encoding: str) -> bool:
        start, end = edit.range.start, edit.range.end
        if (start.line, start.character) > (end.line, end.character):
            start, end = end, start
        new_text = re.sub(r"\r\n?", "\n", edit.new_text)
        pieces = new_text.split("\n")
        count = len(self.lines)
        if count <= start.line:  # wholly after the last line: append the pieces as lines
            self.lines[count:count] = pieces
            return False
        start_col = _byte_col(self._line(start.line), start.character, encoding)
        end_row = end.line
        end_col = _byte_col(self._line(end.line), end.character, encoding)
        last_len = len(self.lines[min(end_row, count - 1)].encode("utf-8"))
        past_end: bool = count <= end_row
        if past_end:
            end_row, end_col = count - 1, last_len
        elif end_col >= last_len and end.character > end_col and new_text.endswith("\n"):
            pieces.pop()
        end_col = min(last_len, end_col)
        head = self.lines[start.line].encode("utf-8")[:start_col].decode("utf-8")
        tail = self.lines[end_row].encode("utf-8")[end_col:].decode("utf-8")
        pieces[0] = head + pieces[0]
        pieces[-1] = pieces[-1] + tail
        self.lines[start.line : end_row + 1] = pieces
        return past_end

    def _line(self, row: int) -> str:
        return self.lines[row] if row < len(self.lines) else ""


def neovim_apply(text: str, edits: Sequence[Any], encoding: str) -> str:
    """The LSP text of a Neovim buffer holding `text` after `edits`."""
    buffer = VimBuffer.of(text)
    buffer.apply(edits, encoding)
    return buffer.text()
