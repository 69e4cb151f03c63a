"""Stopping KeSi and protecting the user's text, in a real Neovim with the real server.

- `:KeSiCancel` while the model is still streaming stops the run at once; the session stays
  usable (the next request is valid for a strict Messages API).
- `:KeSiCancel` while a review is open closes it as a reject; nothing changes.
- Text the user typed after KeSi read the file is never overwritten: the edit is refused as
  stale, no review is shown, and the model is told to read the file again.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import Timing, reply, script, stall_after, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import disk, start_kesi, tool_result_text
from tests.nvim.project import CALC_BUGGY, FAULTY_LINE, failing_project

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

READ = tool_use("read_file", {"file_path": "calc.py"})
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)
FIRST_WORDS = "Let me think about this carefully"


def test_cancel_while_the_model_streams(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    long_text = FIRST_WORDS + ", because the failing assertion says more than it seems. " * 3
    api = scripted_api(
        script(
            # Streams the first words, then goes silent for a minute.
            stall_after(8, long_text, READ, seconds=60),
            reply("calc.py defines add(), which subtracts.", expect={"stream": True}),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")

    # The explanation is visible while the model is still talking.
    kesi.wait_output("Let me")
    assert ed.lua("return require('kesi').status()").startswith("KeSi ● ")

    # One run per folder at a time: a second one is refused with a clear message.
    ed.keys(":KeSiAsk something else<CR>")
    assert "already working" in kesi.notified("already working")
    assert sum(line.startswith("── ask · ") for line in ed.output()) == 0

    started = time.monotonic()
    ed.keys(":KeSiCancel<CR>")
    run = kesi.wait_finished(timeout=15)
    elapsed = time.monotonic() - started
    assert run["status"] == "cancelled"
    assert elapsed < 5, f"cancel took {elapsed:.1f} s"
    out = ed.output()
    assert out[-1].startswith("── cancelled · "), out
    assert not ed.lua("return require('kesi').status()").startswith("KeSi ● ")
    assert disk(project, "calc.py") == CALC_BUGGY
    assert ed.lines(ed.file_buffer("calc.py")) == CALC_BUGGY.splitlines()

    # The session goes on: the next request is accepted by the strict scripted API.
    ed.keys(":KeSiAsk what does calc.py do?<CR>")
    run = kesi.wait_finished(count=2)
    assert run["status"] == "done", ed.output()
    assert "calc.py defines add(), which subtracts." in ed.output()
    assert len(api.requests) == 2


def test_cancel_during_review_closes_it_and_changes_nothing(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(script(reply("Let me read calc.py.", READ), reply("Changing it.", EDIT)))
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")
    kesi.wait_review()
    ed.keys(":KeSiCancel<CR>")
    run = kesi.wait_finished(timeout=15)
    assert run["status"] == "cancelled"
    ed.wait("next(require('kesi.review').views) == nil", "the review to close")
    assert ed.lua("return #vim.api.nvim_list_tabpages()") == 1
    assert disk(project, "calc.py") == CALC_BUGGY
    calc = ed.file_buffer("calc.py")
    assert ed.lines(calc) == CALC_BUGGY.splitlines()
    assert ed.lua("return vim.bo[...].modified", calc) is False


def test_text_typed_where_kesi_edits_after_it_read_is_never_overwritten(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Let me read calc.py.", READ),
            # The model takes its time; meanwhile the user types.
            reply("I will change the subtraction.", EDIT, timing=Timing(headers_delay=4)),
            reply("calc.py changed under me; I stop here so your text stays as it is."),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    calc = ed.file_buffer("calc.py")
    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")
    kesi.wait_output("→ read")  # read_file has answered (the server's result line)
    # On the very line KeSi replaces (typing elsewhere would not stop the edit: Day 9).
    ed.keys(f"{FAULTY_LINE}GA  # my own note<Esc>")
    mine = CALC_BUGGY.splitlines()
    mine[FAULTY_LINE - 1] += "  # my own note"
    ed.wait_until(lambda: ed.lines(calc) == mine, "the user's typing")

    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert ed.lines(calc) == mine, "the user's unsaved text is intact"
    assert ed.lua("return vim.bo[...].modified", calc) is True, "and still unsaved"
    assert disk(project, "calc.py") == CALC_BUGGY, "nothing was written"
    assert ed.lua("return require('kesi.review').opened") == 0, "no stale diff was offered"
    told = tool_result_text(api.requests[2].body).lower()
    assert "read" in told and ("changed" in told or "stale" in told), told
