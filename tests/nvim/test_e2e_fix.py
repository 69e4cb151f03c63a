"""KeSi in a real Neovim, end to end: the plugin, the real kesi-lsp, a scripted Messages API.

A user opens a project whose test fails, puts the cursor on the faulty line and runs
`:KeSiFix`. Everything after that goes through the plugin's own UI: the diff review is
answered with its mappings, the command prompt with Neovim's vim.ui.select. The tests then
look at what the user would look at: the buffer, the file on disk, `u`, the output buffer, the
cost.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import KesiEditor, disk, start_kesi, tool_result_text
from tests.nvim.project import CALC_BUGGY, CALC_FIXED, FAULTY_LINE, failing_project
from tests.story import words

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

READ = tool_use("read_file", {"file_path": "calc.py"})
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)
PYTEST = "python -m pytest -q"
DIAGNOSTIC = "test_add: assert -1 == 5"


def set_test_diagnostic(kesi: KesiEditor) -> None:
    """What a test runner plugin would show on the faulty line."""
    kesi.ed.lua(
        "vim.diagnostic.set(vim.api.nvim_create_namespace('pytest'), 0, "
        "{ { lnum = ... - 1, col = 4, end_col = 16, message = select(2, ...), "
        "severity = vim.diagnostic.severity.ERROR, source = 'pytest' } })",
        FAULTY_LINE,
        DIAGNOSTIC,
    )


def fix_script() -> object:
    return script(
        reply(
            "The test expects add(2, 3) == 5, but add() subtracts. Let me read calc.py.",
            READ,
            expect={"last_user_text_contains": DIAGNOSTIC},
        ),
        reply("Line 3 subtracts where it should add.", EDIT),
        reply("Now the tests.", tool_use("run_command", {"command": PYTEST})),
        reply(
            "Fixed: add() now adds, and the test passes.",
            expect={"last_tool_result_contains": "1 passed"},
        ),
    )


def test_fix_this_review_accept_prompt_allow_then_undo(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(fix_script())
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    set_test_diagnostic(kesi)

    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")

    # The review: before and after, side by side; `ga` accepts.
    review = kesi.wait_review()
    assert review["path"] == "calc.py"
    assert review["before"] == CALC_BUGGY.splitlines()
    assert review["after"] == CALC_FIXED.splitlines()
    assert review["tab"], "the review has the user's attention"
    assert ed.lines(ed.file_buffer("calc.py")) == CALC_BUGGY.splitlines(), "nothing yet"
    assert disk(project, "calc.py") == CALC_BUGGY
    ed.keys("ga")

    # The command prompt: Neovim's own vim.ui.select, Deny first; "2" is Allow once.
    prompt = kesi.wait_select()
    assert PYTEST in prompt["prompt"]
    assert prompt["items"] == ["Deny", "Allow once", "Allow for this session"]
    ed.keys("2<CR>")

    run = kesi.wait_finished()
    assert run["status"] == "done"

    # The fix is in the buffer and on disk, and saved (the buffer is not modified).
    calc = ed.file_buffer("calc.py")
    assert ed.lines(calc) == CALC_FIXED.splitlines()
    assert disk(project, "calc.py") == CALC_FIXED
    assert ed.lua("return vim.bo[...].modified", calc) is False
    assert ed.lua("return vim.api.nvim_get_current_buf()") == calc, "back where the user was"

    # The output told the story in the server's lines, tools and notices set apart from prose.
    out = ed.output()
    text = "\n".join(out)
    assert out[0].startswith(f"── fix this · calc.py:{FAULTY_LINE} · ")
    assert "The test expects add(2, 3) == 5, but add() subtracts. Let me read calc.py." in out
    read, run_tests = words.tool("read_file", "calc.py"), words.tool("run_command", PYTEST)
    assert read in out and words.tool("edit_file", "calc.py") in out and run_tests in out
    assert "Fixed: add() now adds, and the test passes." in text
    highlights = dict(ed.output_highlights())
    assert highlights[read] == "KeSiTool"
    assert highlights[run_tests] == "KeSiTool"
    prose = "The test expects add(2, 3) == 5, but add() subtracts. Let me read calc.py."
    assert prose not in highlights, "model text is plain prose"
    notices = [line for line in out if line.startswith(words.notice("")[:-1])]
    assert all(highlights.get(line) == "KeSiNotice" for line in notices)

    # The footer: Day 18's bill, the tokens the API billed, the same dollars everywhere.
    billed = [r.usage for r in api.accounting]
    footer = out[-1]
    match = re.fullmatch(
        r"── done · verified · \(this run: 4 request\(s\), input ([\d,]+), output ([\d,]+)"
        r"(?:, cache read ([\d,]+), cache write ([\d,]+))?, \$(\d+\.\d{4}); "
        r"session total \$(\d+\.\d{4})\)",
        footer,
    )
    assert match, footer
    assert highlights[footer] == "KeSiDone"

    def number(group: str | None) -> int:
        return int((group or "0").replace(",", ""))

    assert number(match[1]) == sum(u.input_tokens for u in billed)
    assert number(match[2]) == sum(u.output_tokens for u in billed)
    assert number(match[3]) == sum(u.cache_read_input_tokens for u in billed)
    assert number(match[4]) == sum(u.cache_creation_input_tokens for u in billed)
    cost = match[5]
    assert float(cost) > 0 and match[6] == cost  # the first run: the session's total too
    # pytest passed after the edit: the server's verdict, above the footer and in the status.
    assert out[-2].startswith(words.verdict(f"{PYTEST} passed after the last change"))
    assert highlights[out[-2]] == "KeSiVerified"
    assert ed.lua("return require('kesi').status()") == f"KeSi ✓ verified · ${cost}"
    ed.keys(":KeSiCost<CR>")
    said = kesi.notified(f"Total ${cost}")
    assert "This session: 4 request(s)" in said

    # `u` in the file's window takes the agent's edit back, and only it.
    ed.keys("u")
    ed.wait_until(lambda: ed.lines(calc) == CALC_BUGGY.splitlines(), "u to restore the text")
    assert disk(project, "calc.py") == CALC_FIXED, "undo changes the buffer, not the disk"
    ed.keys("<C-r>")
    ed.wait_until(lambda: ed.lines(calc) == CALC_FIXED.splitlines(), "redo")


def test_reject_leaves_buffer_and_disk_untouched(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Let me read calc.py.", READ),
            reply("I will change the subtraction.", EDIT),
            reply("Understood: I leave calc.py as it is."),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    calc = ed.file_buffer("calc.py")
    undo_before = ed.lua("return vim.fn.changenr()")

    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")
    kesi.wait_review()
    ed.keys("gr")

    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert ed.lines(calc) == CALC_BUGGY.splitlines()
    assert disk(project, "calc.py") == CALC_BUGGY
    assert ed.lua("return vim.bo[...].modified", calc) is False
    assert ed.lua("return vim.api.nvim_buf_call(..., vim.fn.changenr)", calc) == undo_before
    # The model learned that the user said no.
    told = tool_result_text(api.requests[2].body).lower()
    assert "refused" in told or "reject" in told, told
    assert "  ✗ " in "\n".join(ed.output())
    assert ed.selects() == [], "a rejected edit asks nothing else"


def test_closing_the_review_is_a_reject(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Let me read calc.py.", READ),
            reply("I will change the subtraction.", EDIT),
            reply("Understood."),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")
    kesi.wait_review()
    ed.keys(":tabclose<CR>")
    assert kesi.wait_finished()["status"] == "done"
    assert disk(project, "calc.py") == CALC_BUGGY
    assert ed.lines(ed.file_buffer("calc.py")) == CALC_BUGGY.splitlines()
    told = tool_result_text(api.requests[2].body).lower()
    assert "refused" in told or "reject" in told, told


def test_code_action_offers_fix_this_and_runs_it(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply(
                "add() subtracts; that is why test_add fails.",
                expect={"last_user_text_contains": DIAGNOSTIC},
            )
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    set_test_diagnostic(kesi)
    ed.keys(f"{FAULTY_LINE}G")
    ed.lua("vim.lsp.buf.code_action()")
    menu = kesi.wait_select()
    assert "KeSi: fix this" in " ".join(menu["items"])
    index = next(i for i, item in enumerate(menu["items"], 1) if "KeSi: fix this" in item)
    ed.keys(f"{index}<CR>")
    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert run["title"] == f"fix this · calc.py:{FAULTY_LINE}"
    assert "add() subtracts; that is why test_add fails." in ed.output()


def test_visual_range_and_instruction_reach_the_task(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply(
                "Both lines are the whole function body.",
                expect={"last_user_text_contains": "keep the docstring"},
            )
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    ed.keys("2GVj:KeSiFix keep the docstring<CR>")  # becomes :'<,'>KeSiFix ...
    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert run["title"] == "fix this · calc.py:2-3"
    task = api.requests[0].body["messages"][0]["content"]
    task = task if isinstance(task, str) else " ".join(b.get("text", "") for b in task)
    assert '"""Return the sum of a and b."""' in task and "return a - b" in task
    assert "def add(a, b):" not in task, "only the selected lines"


def test_undo_takes_back_only_the_agents_edit_not_the_users_typing(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    """The user changed line 1 (unsaved) before asking; KeSi's edit of line 3 keeps it (I2)."""
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(reply("Reading.", READ), reply("Fixing line 3.", EDIT), reply("Fixed."))
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    calc = ed.file_buffer("calc.py")
    ed.keys("1G$hi, c=0<Esc>")  # def add(a, b, c=0):
    mine = ["def add(a, b, c=0):", *CALC_BUGGY.splitlines()[1:]]
    ed.wait_until(lambda: ed.lines(calc) == mine, "the user's typing")

    ed.keys(f"{FAULTY_LINE}G:KeSiFix<CR>")
    review = kesi.wait_review()
    assert review["before"] == mine, "KeSi works on the text the user sees"
    ed.keys("ga")
    assert kesi.wait_finished()["status"] == "done"
    fixed = ["def add(a, b, c=0):", *CALC_FIXED.splitlines()[1:]]
    assert ed.lines(calc) == fixed
    assert disk(project, "calc.py").splitlines() == fixed

    ed.keys("u")
    ed.wait_until(lambda: ed.lines(calc) == mine, "u to take back KeSi's edit only")
    ed.keys("u")
    ed.wait_until(lambda: ed.lines(calc) == CALC_BUGGY.splitlines(), "a second u: the user's")
