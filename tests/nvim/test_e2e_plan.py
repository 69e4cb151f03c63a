"""The working loop in a real Neovim (design §2.10): the plan at the top of `kesi://output`,
updated in place while the run lives and in `require('kesi').status()`; the editor's other
language servers' new problems told to the model; the server's verdict in the footer and the
status."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import start_kesi, tool_result_text
from tests.nvim.project import CALC_FIXED, failing_project
from tests.story import words

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

STEPS = ("Read calc.py", "Fix the sign", "Run the tests")
PYTEST = "python -m pytest -q"


def at_step(number: int) -> object:
    statuses = ["completed"] * number + ["in_progress"] + ["pending"] * (len(STEPS) - number - 1)
    items = [{"content": c, "status": s} for c, s in zip(STEPS, statuses, strict=False)]
    return tool_use("todo", {"items": items})


EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)

# A second language server: after every change of calc.py it reports a warning on `a + b`.
LINTER = """
local ns = vim.api.nvim_create_namespace('fakelint')
vim.api.nvim_create_autocmd({ 'TextChanged', 'BufWritePost' }, {
  pattern = '*/calc.py',
  callback = function(args)
    vim.defer_fn(function()
      local lines = vim.api.nvim_buf_get_lines(args.buf, 0, -1, false)
      local found = {}
      for i, line in ipairs(lines) do
        local col = line:find('a + b', 1, true)
        if col then
          table.insert(found, { lnum = i - 1, col = col - 1, end_col = col + 4,
            message = 'consider sum((a, b))', severity = vim.diagnostic.severity.WARN,
            source = 'fakelint' })
        end
      end
      vim.diagnostic.set(ns, args.buf, found)
    end, 150)
  end,
})
"""


def test_the_plan_the_new_problems_and_the_verdict(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Planning.", at_step(0), tool_use("read_file", {"file_path": "calc.py"})),
            reply("Fixing.", at_step(1), EDIT),
            reply("Testing.", at_step(2), tool_use("run_command", {"command": PYTEST})),
            reply(
                "Done.",
                tool_use("todo", {"items": [{"content": c, "status": "completed"} for c in STEPS]}),
            ),
            reply("All three steps are done."),
        )
    )
    kesi = start_kesi(open_editor, project, api.base_url)
    ed = kesi.ed
    ed.lua(LINTER)
    ed.keys(":KeSiAsk fix calc<CR>")

    # While the edit waits for review, the plan is at the top with step 2 in progress.
    kesi.wait_review()
    top = ed.output()[:5]
    assert top == [
        f"{words.plan_title(1, 3)} · ask · fix calc",
        "  ✓ Read calc.py",
        "  ▶ Fix the sign",
        "  ○ Run the tests",
        "",
    ]
    assert "step 2 of 3: Fix the sign" in ed.lua("return require('kesi').status()")
    ed.keys("ga")
    kesi.wait_select()
    assert ed.output()[:3] == [
        f"{words.plan_title(2, 3)} · ask · fix calc",
        "  ✓ Read calc.py",
        "  ✓ Fix the sign",
    ], "updated in place"
    ed.keys("2<CR>")  # Allow once (Deny comes first)
    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert (project / "calc.py").read_text(encoding="utf-8") == CALC_FIXED

    # The linter's new warning reached the model with the edit's result.
    edit_result = tool_result_text(api.requests[2].body)
    assert "New problems the editor reports since this change:" in edit_result
    assert "- calc.py:3 warning: consider sum((a, b)) (fakelint)" in edit_result

    out = ed.output()
    assert not out[0].startswith(words.plan_title(3, 3)), "the plan left the top when the run ended"
    assert "  ✓ Run the tests" in out, "its final state is in the run's story"
    assert out[-2].startswith(words.verdict(f"{PYTEST} passed after the last change"))
    assert out[-1].startswith(f"── {words.end()}(this run: 5 request(s), input ")
    assert ed.lua("return require('kesi').status()").startswith("KeSi ✓ verified · $")
