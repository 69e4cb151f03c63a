"""A command KeSi runs changes a file open in Neovim: the buffer shows it, like VS Code's do.

Neovim only notices a file changed on disk on focus or `:checktime`; the plugin runs
`:checktime` after each `run_command` for buffers without changes of their own (where
'autoread' allows a silent reload), so the next edit works on the text the command left,
instead of being refused as made against an outdated buffer.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import Timing, reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import disk, start_kesi
from tests.nvim.project import CALC_BUGGY, CALC_FIXED, failing_project

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

RENAME = "sed -i 's/def add/def add_numbers/' calc.py"
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)


def test_a_command_s_change_shows_in_the_clean_buffer_and_the_next_edit_keeps_it(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    renamed = CALC_BUGGY.replace("def add", "def add_numbers")
    api = scripted_api(
        script(
            reply("Renaming.", tool_use("run_command", {"command": RENAME})),
            # A real model takes a while to answer; the reload (milliseconds after the
            # command) lands before its edit does. Without the pause this scripted model
            # could edit in the very moment the buffer reloads, and be refused as stale.
            reply(
                "Now the fix.",
                EDIT,
                expect={"last_tool_result_is_error": False},
                timing=Timing(headers_delay=0.5),
            ),
            reply("Done.", expect={"last_tool_result_contains": "Replaced"}),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    calc = ed.file_buffer("calc.py")
    ed.keys(":KeSiAsk rename add and fix it<CR>")

    prompt = kesi.wait_select()
    assert RENAME in prompt["prompt"]
    ed.keys("2<CR>")  # Allow once (Deny comes first)

    review = kesi.wait_review()  # the edit is shown against the reloaded text
    assert review["before"] == renamed.splitlines()
    assert ed.lines(calc) == renamed.splitlines(), "the buffer shows the command's change"
    ed.keys("ga")

    run = kesi.wait_finished()
    assert run["status"] == "done"
    both = CALC_FIXED.replace("def add", "def add_numbers")
    assert disk(project, "calc.py") == both, "the command's change and the edit, both"
    assert ed.lines(calc) == both.splitlines()
    assert ed.lua("return vim.bo[...].modified", calc) is False


def test_a_buffer_with_the_user_s_changes_is_not_reloaded(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Renaming.", tool_use("run_command", {"command": RENAME})),
            reply("Done."),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    calc = ed.file_buffer("calc.py")
    ed.keys("1GA  # mine<Esc>")
    mine = ["def add(a, b):  # mine", *CALC_BUGGY.splitlines()[1:]]
    ed.wait_until(lambda: ed.lines(calc) == mine, "the user's typing")
    ed.keys(":KeSiAsk rename add<CR>")
    kesi.wait_select()
    ed.keys("2<CR>")  # Allow once
    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert ed.lines(calc) == mine, "the user's unsaved text is intact"
    assert ed.lua("return vim.bo[...].modified", calc) is True
    assert disk(project, "calc.py") == CALC_BUGGY.replace("def add", "def add_numbers")
