"""Plain eglot, without the package: the README's three lines in init.el, nothing else.

What the README promises there: `M-x eglot` starts kesi-lsp, "KeSi: fix this" is in
`M-x eglot-code-actions`, the permission prompts (and the diff of each edit) are asked in
the minibuffer, and the edit lands on disk, where `global-auto-revert-mode` (the README's
fourth line) reloads the buffer: no question, no modified buffer (issue 30). Only a buffer
holding the user's own unsaved typing gets the edit through eglot, which asks its own y/n
first; answering it with `n` is the user's refusal: the model is told so (issue 13, "Emacs'
own no").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.harness import Emacs
from tests.emacs.session import (
    CALC_BUGGY,
    CALC_FIXED,
    FAKE_KEY,
    FAULTY_LINE,
    KesiEmacs,
    disk,
    failing_project,
    tool_result_text,
)

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

NOTE = "# my own note"
READ = tool_use("read_file", {"file_path": "calc.py"})
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)


def plain_emacs(open_emacs: OpenEmacs, project: Path, base_url: str) -> KesiEmacs:
    ed = open_emacs(
        project,
        "calc.py",
        env={"ANTHROPIC_BASE_URL": base_url, "ANTHROPIC_API_KEY": FAKE_KEY},
        setup="plain",
    )
    kesi = KesiEmacs(ed)
    ed.command("eglot")
    ed.wait_until(
        lambda: ed.in_file("calc.py", "(and (eglot-current-server) t)"), "eglot to connect"
    )
    assert ed.eval("(featurep 'kesi)") is None, "the package is not loaded"
    return kesi


def fix_with_code_action(kesi: KesiEmacs, line: int = FAULTY_LINE) -> None:
    """`M-x eglot-code-actions` on the faulty line, and its default: KeSi: fix this."""
    kesi.goto_line(line)
    kesi.ed.command("eglot-code-actions")
    kesi.ed.wait_screen("(default KeSi: fix this)")
    kesi.ed.keys("Enter")


def answer_prompt(ed: Emacs, title: str) -> None:
    """Eglot pre-fills the minibuffer with the first action: clear it, type `title`."""
    ed.keys("C-a", "C-k")
    ed.type(title)
    ed.keys("Enter")


def test_plain_eglot_edit_lands_on_disk_and_the_buffer_reloads_with_no_question(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(script(reply("Reading.", READ), reply("Fixing.", EDIT), reply("Fixed.")))
    kesi = plain_emacs(open_emacs, project, api.base_url)
    ed = kesi.ed
    fix_with_code_action(kesi)

    # KeSi's review, through window/showMessageRequest: the diff in the minibuffer prompt.
    # The prompt's last line can be drawn before the minibuffer grows to show the whole prompt
    # (a loaded machine): wait for the redraw that shows the diff, as the user does.
    screen = ed.wait_until(
        lambda: "Choose an option:" in (s := ed.screen()) and "+    return a + b" in s and s,
        "the question with its diff on screen",
    )
    assert "-    return a - b" in screen
    # What is asked comes last, where the minibuffer shows a long prompt's end (issue 30).
    assert "[Permission needed] edit_file changes file: calc.py" in screen
    answer_prompt(ed, "Allow once")

    ed.wait_until(lambda: disk(project, "calc.py") == CALC_FIXED, "the edit on disk", 30)
    # Auto-revert reloads the buffer, which held no typing of the user's: no question.
    ed.wait_until(
        lambda: ed.file_lines("calc.py") == CALC_FIXED.split("\n"), "the buffer reloaded", 30
    )
    # The run's story is only in the events buffer, as logMessage lines.
    ed.wait_until(lambda: "KeSi > Fixed." in ed.story(), "the story in the events buffer")
    # ... and the end of the run is on screen: one line in the echo area (issue 30).
    ed.wait_until(
        lambda: any("KeSi: done · " in m for m in ed.messages().splitlines()),
        "the run's end line in the echo area",
        30,
    )
    modified = (
        "(seq-filter (lambda (b) (and (buffer-file-name b) (buffer-modified-p b))) (buffer-list))"
    )
    assert ed.eval(f"(mapcar #'buffer-name {modified})") is None, "no modified buffer"
    messages = ed.messages()
    assert "Server wants to edit" not in messages and "changed on disk" not in messages, messages
    assert len(api.requests) == 3


def test_plain_eglot_no_to_eglots_own_question_is_a_refusal(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Reading.", READ),
            reply("Fixing.", EDIT),
            reply(
                "Understood: I leave calc.py as it is.",
                expect={"last_tool_result_contains": "the user refused to modify this file"},
            ),
        )
    )
    kesi = plain_emacs(open_emacs, project, api.base_url)
    ed = kesi.ed
    # The user's own note, not saved: this buffer's edit goes through eglot, which asks.
    kesi.goto_line(1)
    ed.type(NOTE)
    ed.keys("Enter")
    ed.wait_until(lambda: ed.file_lines("calc.py")[0] == NOTE, "the user's typing")
    fix_with_code_action(kesi, FAULTY_LINE + 1)
    ed.wait_screen("Choose an option:")
    answer_prompt(ed, "Allow once")
    ed.wait_screen("Server wants to edit")
    ed.type("n")

    ed.wait_until(lambda: len(api.requests) == 3, "the model to hear back", 30)
    told = tool_result_text(api.requests[2].body)
    assert told == "Error: the user refused to modify this file.", told  # the seed's, whole
    assert "failed" not in told.lower(), "the editor did not fail: the user said no"
    assert ed.file_lines("calc.py") == (NOTE + "\n" + CALC_BUGGY).split("\n")
    assert ed.in_file("calc.py", "(and (buffer-modified-p) t)") is True, "the user's typing"
    assert disk(project, "calc.py") == CALC_BUGGY
