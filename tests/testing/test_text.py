"""The scripted editor's text model: LSP positions in code units, edits applied like an editor."""

from __future__ import annotations

from lsprotocol import types

from kesi_lsp.testing.text import apply_text_edits, offset_at, whole_line


def test_positions_are_utf16_code_units_like_lsp() -> None:
    text = "a = '滿千折百'\nb = '🙂x'\n"
    # '🙂' is two UTF-16 code units: character 6 on line 1 is right after it.
    assert offset_at(text, types.Position(line=1, character=7)) == text.index("x")
    edit = types.TextEdit(
        range=types.Range(
            start=types.Position(line=1, character=7), end=types.Position(line=1, character=8)
        ),
        new_text="y",
    )
    assert apply_text_edits(text, [edit]) == "a = '滿千折百'\nb = '🙂y'\n"
    assert whole_line(text, 0) == types.Range(
        start=types.Position(line=0, character=0), end=types.Position(line=0, character=10)
    )
