"""Saying no and stopping, in a real Emacs with kesi.el and the real server.

- A bare RET at a permission prompt denies, whatever order the server lists the actions in;
  C-g denies too. A denied command never runs, and the model is told.
- `M-x kesi-cancel` while the model streams stops the run at once; the session goes on.
- `M-x kesi-cancel` while a review is open closes it as a reject (the review never blocks
  Emacs: the cancel goes out while the diff waits); nothing changes.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, stall_after, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.session import (
    CALC_BUGGY,
    FAULTY_LINE,
    disk,
    failing_project,
    start_kesi,
    tool_result_text,
)
from tests.story import words

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

READ = tool_use("read_file", {"file_path": "calc.py"})
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)
REFUSED_COMMAND = "the user refused to run this command"


def test_ret_and_c_g_at_a_prompt_deny(open_emacs: OpenEmacs, scripted_api, tmp_path: Path) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("I will make a file.", tool_use("run_command", {"command": "touch first"})),
            reply(
                "Another one, then.",
                tool_use("run_command", {"command": "touch second"}),
                expect={"last_tool_result_contains": REFUSED_COMMAND},
            ),
            reply("You said no twice.", expect={"last_tool_result_contains": REFUSED_COMMAND}),
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("make two files")
    ed.keys("Enter")

    # The prompt starts empty (eglot would pre-fill the first action) and says what RET does.
    screen = kesi.wait_prompt("touch first")
    prompt_line = screen.rstrip("\n").split("\n")[-1]
    assert prompt_line.endswith("(RET = Deny):"), prompt_line
    ed.keys("Enter")

    kesi.wait_prompt("touch second")
    ed.keys("C-g")

    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert not (project / "first").exists() and not (project / "second").exists()
    told = tool_result_text(api.requests[1].body)
    assert told == f"Error: {REFUSED_COMMAND}.", told  # the seed's refusal, whole
    assert "KeSi: denied · [Permission needed] Run command: touch first" in ed.messages()
    assert "KeSi: denied · [Permission needed] Run command: touch second" in ed.messages()
    assert sum(line.startswith(words.result("", error=True)) for line in kesi.output()) == 2


def test_zh_tw_prompts_bills_and_resets_in_the_seeds_words(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    """Under zh-TW the prompt offers Day 14's answers (不要 first, and RET gives it), the model
    gets the seed's refusal whole, the footer is Day 18's bill and kesi-reset says Day 10's
    line; the project's first run starts with Day 15's working-directory and sandbox lines."""
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("建個檔案。", tool_use("run_command", {"command": "touch first"})),
            reply("好，不做。", expect={"last_tool_result_contains": "使用者拒絕執行這個指令"}),
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url, settings={"locale": "zh-TW"})
    ed = kesi.ed
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("make a file")
    ed.keys("Enter")
    screen = kesi.wait_prompt("touch first")
    assert "放行嗎？" in screen and "不要, 這次, 這個 session 都好" in screen, screen
    assert screen.rstrip("\n").split("\n")[-1].endswith("(RET = 不要):"), screen
    ed.keys("Enter")

    assert kesi.wait_finished()["status"] == "done"
    assert not (project / "first").exists()
    assert tool_result_text(api.requests[1].body) == "錯誤：使用者拒絕執行這個指令。"
    out = kesi.output()
    # Day 15's two start-up lines, plainly, right under the run's header.
    assert out[1] == f"  工作目錄：{project.resolve()}", out
    assert out[2].startswith("  指令沙箱："), out
    assert kesi.faces()[out[1]] == kesi.faces()[out[2]] == "kesi-startup"
    assert out[-1].startswith("── 完成 · （本輪 2 次請求，input "), out
    assert out[-1].endswith("）"), out
    assert f"KeSi: {out[-1].removeprefix('── ')}" in ed.messages()
    ed.command("kesi-reset")
    ed.wait_until(lambda: "（日記與檔案版本紀錄已清空，我們重新開始）" in ed.messages(), "reset")


def test_cancel_while_the_model_streams(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    long_text = "Let me think about this carefully, because the assertion says more. " * 3
    api = scripted_api(
        script(
            stall_after(8, long_text, READ, seconds=60),
            reply("calc.py defines add(), which subtracts.", expect={"stream": True}),
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")

    kesi.wait_output("Let me")  # the explanation shows while the model is still talking
    assert ed.eval('(and (get-buffer-window "*kesi*") t)') is True
    assert ed.eval("(buffer-name (window-buffer (selected-window)))") == "calc.py", (
        "*kesi* is shown without taking the focus"
    )
    assert "KeSi● " in ed.in_file("calc.py", "(format-mode-line mode-line-format)")

    started = time.monotonic()
    ed.command("kesi-cancel")
    run = kesi.wait_finished(timeout=15)
    elapsed = time.monotonic() - started
    assert run["status"] == "cancelled"
    assert elapsed < 5, f"cancel took {elapsed:.1f} s"
    assert kesi.output()[-1].startswith("── cancelled · "), kesi.output()
    assert "KeSi● " not in ed.in_file("calc.py", "(format-mode-line mode-line-format)")
    # Day 18: the interrupted request is billed for what arrived, and the bill says so.
    assert "counted only up to the interruption" in kesi.output()[-1], kesi.output()
    assert "KeSi: cancelled · (this run: 1 request(s), " in ed.messages()
    assert disk(project, "calc.py") == CALC_BUGGY
    assert ed.file_lines("calc.py") == CALC_BUGGY.split("\n")

    # The session goes on: the next request is accepted by the strict scripted API.
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("what does calc.py do?")
    ed.keys("Enter")
    assert kesi.wait_finished(count=2)["status"] == "done"
    assert "calc.py defines add(), which subtracts." in kesi.output()
    assert any(line.startswith("── ask · what does calc.py do?") for line in kesi.output())


def test_cancel_during_review_closes_it_and_changes_nothing(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(script(reply("Let me read calc.py.", READ), reply("Changing it.", EDIT)))
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")
    assert kesi.wait_review()["selected"]
    ed.command("kesi-cancel")  # typed in the review buffer: Emacs is not blocked by it
    assert kesi.wait_finished(timeout=15)["status"] == "cancelled"
    ed.wait_until(lambda: ed.eval("(kesi-test-review)") is None, "the review to close")
    assert ed.eval("(buffer-name (window-buffer (selected-window)))") == "calc.py"
    assert disk(project, "calc.py") == CALC_BUGGY
    assert ed.file_lines("calc.py") == CALC_BUGGY.split("\n")
    assert ed.in_file("calc.py", "(buffer-modified-p)") is None
    assert len(api.requests) == 2
