"""The working loop in a real Emacs (design §2.10, issue 14): the plan at the head of `*kesi*`,
updated in place while the run lives and named in the mode line; the new problems a linter
reports through flymake after an edit told to the model (kesi.el answers `kesi/diagnostics`
with flymake's diagnostics); the server's verdict beside the bill, in `*kesi*`, the echo area
and the mode line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.harness import Emacs, elisp_string
from tests.emacs.session import CALC_FIXED, disk, failing_project, start_kesi, tool_result_text
from tests.story import words

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

STEPS = ("Read calc.py", "Fix the sign", "Run the tests")
PYTEST = "python -m pytest -q"
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)


def mode_line(ed: Emacs) -> str:
    """calc.py's mode line, whichever window is selected."""
    form = "(format-mode-line mode-line-format nil nil (current-buffer))"
    return str(ed.in_file("calc.py", form))


def at_step(number: int) -> object:
    statuses = ["completed"] * number + ["in_progress"] + ["pending"] * (len(STEPS) - number - 1)
    items = [{"content": c, "status": s} for c, s in zip(STEPS, statuses, strict=False)]
    return tool_use("todo", {"items": items})


def test_the_plan_the_new_problems_and_the_verdict(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
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
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    calc = elisp_string(str((project / "calc.py").resolve()))
    ed.eval(f"(progn (kesi-test-add-linter {calc}) t)")
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("fix calc")
    ed.keys("Enter")

    # While the edit waits for review, the plan heads *kesi*, step 2 in progress.
    kesi.wait_review()
    head = ed.lines("*kesi*")[:5]
    assert head == [
        f"{words.plan_title(1, 3)} · ask · fix calc",
        "  ✓ Read calc.py",
        "  ▶ Fix the sign",
        "  ○ Run the tests",
        "",
    ], head
    faces = kesi.faces()
    assert faces["  ▶ Fix the sign"] == "kesi-plan-active"
    assert faces["  ✓ Read calc.py"] == "kesi-plan-done"
    assert "step 2 of 3: Fix the sign" in mode_line(ed), "the step in progress, in the mode line"
    ed.type("a")
    kesi.wait_prompt(PYTEST)
    ed.wait_until(
        lambda: (
            ed.lines("*kesi*")[:3]
            == [
                f"{words.plan_title(2, 3)} · ask · fix calc",
                "  ✓ Read calc.py",
                "  ✓ Fix the sign",
            ]
        ),
        "the plan updated in place",
    )
    plans = [line for line in ed.lines("*kesi*") if line.startswith(words.plan_title(2, 3))]
    assert len(plans) == 1, "one plan"
    ed.type("Allow once")
    ed.keys("Enter")
    assert kesi.wait_finished()["status"] == "done"
    assert disk(project, "calc.py") == CALC_FIXED

    # The linter's new warning, from flymake, reached the model with the edit's result.
    edit_result = tool_result_text(api.requests[2].body)
    assert "New problems the editor reports since this change:" in edit_result, edit_result
    assert "- calc.py:3 warning: consider sum((a, b)) (fakelint)" in edit_result

    out = kesi.output()
    assert not out[0].startswith(words.plan_title(3, 3)), "the plan left the head when it ended"
    assert out[0].startswith("── ask · fix calc · "), out
    assert "  ✓ Run the tests" in out, "its final state is in the run's story"
    verdict, footer = out[-2], out[-1]
    assert verdict.startswith(words.verdict(f"{PYTEST} passed after the last change")), out
    assert footer.startswith(f"── {words.end()}(this run: 5 request(s), "), footer
    faces = kesi.faces()
    assert faces[verdict] == "kesi-verified" and faces[footer] == "kesi-done"
    assert f"KeSi: {footer.removeprefix('── ')}" in ed.messages(), "the echo line"
    assert "KeSi ✓ verified · $" in mode_line(ed), mode_line(ed)


def test_a_failed_check_in_the_seeds_words(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    """Under zh-TW the plan's head, the step in the mode line and the verdict are the server's
    words; a check that fails after the last change makes the run's verdict 驗證失敗, in the
    story, the footer, the echo area and the mode line (the model's "done" does not verify)."""
    project = failing_project(tmp_path / "calc")
    steps = ("修正 add", "跑測試")
    wrong = tool_use(
        "edit_file",
        {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a * b"},
    )

    def plan(*statuses: str) -> object:
        items = [{"content": c, "status": s} for c, s in zip(steps, statuses, strict=True)]
        return tool_use("todo", {"items": items})

    api = scripted_api(
        script(
            reply("改。", plan("in_progress", "pending"), wrong),
            reply(
                "測。",
                plan("completed", "in_progress"),
                tool_use("run_command", {"command": PYTEST}),
            ),
            reply("好了。"),
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url, settings={"locale": "zh-TW"})
    ed = kesi.ed
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("fix calc")
    ed.keys("Enter")

    kesi.wait_review()
    assert ed.lines("*kesi*")[:3] == [
        f"{words.plan_title(0, 2, 'zh-TW')} · ask · fix calc",
        "  ▶ 修正 add",
        "  ○ 跑測試",
    ]
    assert "第 1 步（共 2 步）：修正 add" in mode_line(ed), mode_line(ed)
    ed.type("a")
    kesi.wait_prompt(PYTEST)
    assert "第 2 步（共 2 步）：跑測試" in mode_line(ed), mode_line(ed)
    ed.type("這次")
    ed.keys("Enter")
    assert kesi.wait_finished()["status"] == "done"

    out = kesi.output()
    verdict, footer = out[-2], out[-1]
    failed = words.verdict(f"最後一次修改之後，{PYTEST} 失敗", "failed", "zh-TW")
    assert verdict.startswith(failed), out
    assert footer.startswith("── 完成 · 驗證失敗 · （本輪 3 次請求，"), footer
    assert kesi.faces()[verdict] == "kesi-verify-failed"
    assert f"KeSi: {footer.removeprefix('── ')}" in ed.messages(), "the echo line"
    assert "KeSi ✗ 驗證失敗 · $" in mode_line(ed), mode_line(ed)
