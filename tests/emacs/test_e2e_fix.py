"""KeSi in a real Emacs, end to end: kesi.el over eglot, the real kesi-lsp, a scripted API.

A user opens a project whose test fails, puts point on the faulty line and runs
`M-x kesi-fix-this`. Everything after that goes through the package's own UI, typed into a
real `emacs -nw`: the diff review is answered with its keys, the command prompt in the
minibuffer. The tests then look at what the user would look at: the buffer, the file on
disk, `C-/`, the `*kesi*` buffer, the echo area, the mode line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import Timing, reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.session import (
    CALC_BUGGY,
    CALC_FIXED,
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
PYTEST = "python -m pytest -q"
DIAGNOSTIC = "test_add: assert -1 == 5"


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


def test_fix_this_review_accept_command_allow_then_undo(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(fix_script())
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    kesi.add_diagnostic("calc.py", FAULTY_LINE, DIAGNOSTIC)
    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")

    # The review: the unified diff in a diff-mode buffer that has the user's attention.
    review = kesi.wait_review()
    assert review["name"] == "*kesi review: calc.py*"
    assert review["mode"] == "diff-mode" and review["selected"]
    assert "-    return a - b" in review["lines"] and "+    return a + b" in review["lines"]
    screen = ed.wait_screen(words.question())
    assert "r Deny · a Allow once · A Allow for this session" in screen, screen
    assert ed.file_lines("calc.py") == CALC_BUGGY.split("\n"), "nothing changed yet"
    assert disk(project, "calc.py") == CALC_BUGGY
    ed.type("a")

    # The command prompt, in the minibuffer: empty, and RET would deny.
    screen = kesi.wait_prompt(PYTEST)
    assert "(RET = Deny)" in screen
    assert "Deny, Allow once, Allow for this session" in screen  # the safe one first
    ed.type("Allow once")
    ed.keys("Enter")

    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert run["title"] == f"fix this · calc.py:{FAULTY_LINE}"

    # Buffer and disk hold the fix, and Emacs saved it: the buffer is not modified.
    assert ed.file_lines("calc.py") == CALC_FIXED.split("\n")
    assert disk(project, "calc.py") == CALC_FIXED
    assert ed.in_file("calc.py", "(buffer-modified-p)") is None
    assert ed.in_file("calc.py", "(and (verify-visited-file-modtime) t)") is True
    assert ed.eval("kesi-test-saves") == ["calc.py"], "a normal save, hooks included, once"
    assert ed.eval("(buffer-name (window-buffer (selected-window)))") == "calc.py", (
        "back where the user was"
    )
    assert ed.eval("(kesi-test-review)") is None, "the review is closed"

    # *kesi* told the story, with tools set apart from prose.
    out = kesi.output()
    assert out[0].startswith(f"── fix this · calc.py:{FAULTY_LINE} · "), out
    text = "\n".join(out)
    assert "The test expects add(2, 3) == 5, but add() subtracts. Let me read calc.py." in out
    read = words.tool("read_file", "calc.py")
    assert read in out and words.tool("edit_file", "calc.py") in out
    assert words.tool("run_command", PYTEST) in out
    assert "Fixed: add() now adds, and the test passes." in text
    faces = kesi.faces()
    assert faces[read] == "kesi-tool"
    assert faces[out[0]] == "kesi-header"
    notices = [line for line in out if line.startswith(words.notice("")[:-1])]
    assert all(faces[line] == "kesi-notice" for line in notices)

    # The bill (Day 18, as the server words it): the tokens the API billed, the same dollars
    # everywhere.
    billed = [r.usage for r in api.accounting]
    footer = out[-1]
    match = re.fullmatch(
        r"── done · verified · \(this run: 4 request\(s\), input ([\d,]+), output ([\d,]+)"
        r"(?:, cache read ([\d,]+), cache write ([\d,]+))?, \$(\d+\.\d{4}); "
        r"session total \$(\d+\.\d{4})\)",
        footer,
    )
    assert match, footer
    assert faces[footer] == "kesi-done"
    # The server's verdict: the tests passed after the last change (design §2.10).
    assert out[-2].startswith(words.verdict(f"{PYTEST} passed after the last change")), out

    def number(group: str | None) -> int:
        return int((group or "0").replace(",", ""))

    assert number(match[1]) == sum(u.input_tokens for u in billed)
    assert number(match[2]) == sum(u.output_tokens for u in billed)
    assert number(match[3]) == sum(u.cache_read_input_tokens for u in billed)
    assert number(match[4]) == sum(u.cache_creation_input_tokens for u in billed)
    cost = match[5]
    assert float(cost) > 0 and match[6] == cost
    assert f"KeSi: {footer.removeprefix('── ')}" in ed.messages(), "one line in the echo area"
    assert f"KeSi ✓ verified · ${cost}" in ed.in_file(
        "calc.py", "(format-mode-line mode-line-format)"
    )
    ed.command("kesi-cost")
    said = ed.wait_until(lambda: f"Total ${cost}" in (m := ed.messages()) and m, "kesi-cost")
    assert "This session: 4 request(s)" in said

    # C-/ takes the agent's edit back in one step; the disk keeps the fix until a save,
    # and that save asks nothing (Emacs itself saved the edit: no clobber question).
    ed.keys("C-_")
    ed.wait_until(lambda: ed.file_lines("calc.py") == CALC_BUGGY.split("\n"), "C-/ to undo")
    assert disk(project, "calc.py") == CALC_FIXED
    ed.keys("C-x", "C-s")
    ed.wait_until(lambda: disk(project, "calc.py") == CALC_BUGGY, "C-x C-s to save")
    assert "changed since visited" not in ed.screen()
    assert ed.in_file("calc.py", "(buffer-modified-p)") is None


def test_rejected_and_killed_reviews_change_nothing(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    """`r` rejects; killing the review buffer (C-x k) rejects too."""
    project = failing_project(tmp_path / "calc")
    refused = "the user refused to modify this file"
    api = scripted_api(
        script(
            reply("Let me read calc.py.", READ),
            reply("I will change the subtraction.", EDIT),
            reply(
                "Then maybe this way.",
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "b + a"},
                ),
                expect={"last_tool_result_contains": refused},
            ),
            reply(
                "Understood: I leave calc.py as it is.",
                expect={"last_tool_result_contains": refused},
            ),
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    undo_before = ed.in_file("calc.py", "(length buffer-undo-list)")
    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")
    kesi.wait_review()
    ed.type("r")
    ed.wait_until(lambda: ed.eval("kesi-review-count") == 2, "the second review")
    review = kesi.wait_review()
    assert "+    return b + a" in review["lines"]
    ed.keys("C-x", "k")
    ed.wait_until(lambda: "Kill buffer" in ed.screen_lines()[-1], "the kill-buffer prompt")
    ed.keys("Enter")

    assert kesi.wait_finished()["status"] == "done"
    assert ed.file_lines("calc.py") == CALC_BUGGY.split("\n")
    assert disk(project, "calc.py") == CALC_BUGGY
    assert ed.in_file("calc.py", "(buffer-modified-p)") is None
    assert ed.in_file("calc.py", "(length buffer-undo-list)") == undo_before
    assert refused in tool_result_text(api.requests[3].body)
    assert sum(line.startswith(words.result("", error=True)) for line in kesi.output()) == 2
    assert ed.messages().count("KeSi: Deny") == 2 or "KeSi: Deny [2 times]" in ed.messages()


def test_an_unreviewed_edit_after_a_prompt_lands_and_is_saved(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    """With `approvals: acceptEdits` the edit is not reviewed: it arrives a while after the
    user's last key, which went to a prompt. Eglot reports changes from an idle timer that
    does not run then (a key read outside the command loop leaves Emacs "not idle" until
    the next key), so kesi.el sends the change itself; else the server would wait for it
    in vain and call the edit skipped."""
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Reading.", READ, tool_use("run_command", {"command": "touch checked"})),
            reply("Fixing.", EDIT, timing=Timing(headers_delay=1.5)),
            reply("Fixed.", expect={"last_tool_result_contains": "Replaced"}),
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url, settings={"approvals": "acceptEdits"})
    ed = kesi.ed
    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")
    kesi.wait_prompt("touch checked")
    ed.type("Allow once")
    ed.keys("Enter")
    assert kesi.wait_finished()["status"] == "done", kesi.output()
    assert (project / "checked").exists()
    assert ed.eval("kesi-review-count") == 0, "nothing was reviewed"
    assert ed.file_lines("calc.py") == CALC_FIXED.split("\n")
    assert disk(project, "calc.py") == CALC_FIXED
    assert ed.in_file("calc.py", "(buffer-modified-p)") is None


def test_the_code_action_runs_fix_this_with_flymakes_diagnostics(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    """`M-x eglot-code-actions` offers "KeSi: fix this"; eglot sends only its own server's
    diagnostics, so kesi.el adds flymake's (a test runner's) for those lines."""
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply(
                "add() subtracts; that is why test_add fails.",
                expect={"last_user_text_contains": DIAGNOSTIC},
            )
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    kesi.add_diagnostic("calc.py", FAULTY_LINE, DIAGNOSTIC)
    kesi.goto_line(FAULTY_LINE)
    ed.command("eglot-code-actions")
    ed.wait_screen("(default KeSi: fix this)")
    ed.keys("Enter")
    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert run["title"] == f"fix this · calc.py:{FAULTY_LINE}"
    assert "add() subtracts; that is why test_add fails." in kesi.output()


def test_a_region_and_an_instruction_reach_the_task(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
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
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    kesi.goto_line(2)
    ed.keys("C-@", "C-n", "C-e")  # the region: lines 2 and 3
    ed.wait_until(
        lambda: ed.eval("(with-current-buffer (window-buffer) (and mark-active t))"), "the region"
    )
    ed.keys("C-u")
    ed.command("kesi-fix-this")
    ed.wait_until(lambda: "KeSi, fix this:" in ed.screen_lines()[-1], "the instruction prompt")
    ed.type("keep the docstring")
    ed.keys("Enter")
    run = kesi.wait_finished()
    assert run["status"] == "done"
    assert run["title"] == "fix this · calc.py:2-3"
    task = api.requests[0].body["messages"][0]["content"]
    task = task if isinstance(task, str) else " ".join(b.get("text", "") for b in task)
    assert '"""Return the sum of a and b."""' in task and "return a - b" in task
    assert "def add(a, b):" not in task, "only the region's lines"
