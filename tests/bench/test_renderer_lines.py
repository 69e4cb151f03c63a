"""The clients stay thin (issue 25): the code of VS Code, Neovim and Emacs that turns KeSi's
events into text is at most half of what it was when each client rendered the story itself,
and the count can tell a renderer from none."""

from __future__ import annotations

import subprocess

import pytest

from bench import renderer_lines
from bench.renderer_lines import BASELINE, CLIENTS, Piece, count, totals


def _baseline_present() -> bool:
    found = subprocess.run(
        ["git", "cat-file", "-e", f"{BASELINE}^{{commit}}"],
        cwd=renderer_lines.ROOT,
        capture_output=True,
    )
    return found.returncode == 0


@pytest.mark.skipif(not _baseline_present(), reason="the baseline commit is not in this clone")
def test_each_clients_renderer_is_at_most_half_what_it_was() -> None:
    before, after = totals(BASELINE), totals(None)
    for client in CLIENTS:
        assert before[client] > 100, (client, before)  # the baseline did render
        assert after[client] * 2 <= before[client], (client, before[client], after[client])


def test_a_piece_counts_its_code_and_not_its_comments() -> None:
    lua = Piece("nvim", "editors/nvim/lua/kesi/output.lua", ("story",))
    assert count(lua, None) > 3
    missing = Piece("nvim", "editors/nvim/lua/kesi/output.lua", ("no_such_function",))
    assert count(missing, None) == 0
    assert renderer_lines.code(["-- a comment", "", "local x = 1", "  ;; elisp", "x()"]) == 2
