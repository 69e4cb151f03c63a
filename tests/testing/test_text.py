"""The scripted editor's text model: LSP positions in code units, edits applied like an editor."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from kesi_lsp.testing.text import apply_text_edits, offset_at, whole_line
from tests.budget import examples


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


@settings(max_examples=examples(300), deadline=None)
@given(
    st.text(alphabet=["a", "é", "🙂", " ", "\n"], max_size=30),
    st.integers(min_value=0, max_value=8),
    st.integers(min_value=0, max_value=12),
    st.sampled_from(["utf-8", "utf-16", "utf-32"]),
)
def test_lf_text_finds_its_positions_as_crlf_text_does(
    text: str, line: int, character: int, encoding: str
) -> None:
    """LF-only text takes a quicker path than text with CR: both land on the same place (the
    CR LF copy of a text has one more character per line before the position)."""
    crlf = text.replace("\n", "\r\n")
    position = types.Position(line=line, character=character)
    lf_offset = offset_at(text, position, encoding)
    crlf_offset = offset_at(crlf, position, encoding)
    assert crlf_offset == lf_offset + text[:lf_offset].count("\n")
    # and the LF offset is the start of its line plus the clamped column
    lines = text.split("\n")
    if line < len(lines) and (line < len(lines) - 1 or lines[line]):
        start = sum(len(part) + 1 for part in lines[:line])
        assert start <= lf_offset <= start + len(lines[line])
    else:
        assert lf_offset == len(text)
