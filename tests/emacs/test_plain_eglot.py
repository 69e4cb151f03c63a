"""Plain eglot, without the package: the README's three lines in init.el, nothing else.

What the README promises there: `M-x eglot` starts kesi-lsp, "KeSi: fix this" is in
`M-x eglot-code-actions`, the permission prompts (and the diff of each edit) are asked in
the minibuffer, eglot asks its own y/n before it applies the edit, and the edit lands in
the buffer and on disk (the server writes the file: the buffer stays marked modified).
Answering eglot's y/n with `n` is the user's refusal: the model is told so (issue 13,
"Emacs' own no").
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


def fix_with_code_action(kesi: KesiEmacs) -> None:
    """`M-x eglot-code-actions` on the faulty line, and its default: KeSi: fix this."""
    kesi.goto_line(FAULTY_LINE)
    kesi.ed.command("eglot-code-actions")
    kesi.ed.wait_screen("(default KeSi: fix this)")
    kesi.ed.keys("Enter")


def answer_prompt(ed: Emacs, title: str) -> None:
    """Eglot pre-fills the minibuffer with the first action: clear it, type `title`."""
    ed.keys("C-a", "C-k")
    ed.type(title)
    ed.keys("Enter")


def test_plain_eglot_edit_lands_after_both_questions(
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
    # Eglot's own question before it applies a server's edit (eglot 1.9's default).
    ed.wait_screen("Server wants to edit")
    ed.type("y")
    # Eglot sends the changed text from an idle timer that waits for Emacs to go busy and
    # idle again: without the package, the server sees the edit once the user moves on.
    ed.wait_screen("Edit successful!")
    ed.keys("C-f")

    ed.wait_until(lambda: disk(project, "calc.py") == CALC_FIXED, "the edit on disk", 30)
    ed.wait_until(lambda: ed.file_lines("calc.py") == CALC_FIXED.split("\n"), "and in the buffer")
    # The run's story is only in the events buffer, as logMessage lines.
    ed.wait_until(lambda: "KeSi > Fixed." in ed.story(), "the story in the events buffer")
    # ... and the end of the run is on screen: one line in the echo area (issue 30).
    ed.wait_until(
        lambda: any("KeSi: done · " in m for m in ed.messages().splitlines()),
        "the run's end line in the echo area",
        30,
    )
    assert ed.in_file("calc.py", "(and (buffer-modified-p) t)") is True, (
        "what the README says: without the package the buffer stays modified"
    )
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
    fix_with_code_action(kesi)
    ed.wait_screen("Choose an option:")
    answer_prompt(ed, "Allow once")
    ed.wait_screen("Server wants to edit")
    ed.type("n")

    ed.wait_until(lambda: len(api.requests) == 3, "the model to hear back", 30)
    told = tool_result_text(api.requests[2].body)
    assert told == "Error: the user refused to modify this file.", told  # the seed's, whole
    assert "failed" not in told.lower(), "the editor did not fail: the user said no"
    assert ed.file_lines("calc.py") == CALC_BUGGY.split("\n")
    assert ed.in_file("calc.py", "(buffer-modified-p)") is None
    assert disk(project, "calc.py") == CALC_BUGGY
