"""The session commands and "for this session" answers, in a real Emacs with kesi.el.

`A` in a review accepts this and later edits to the file: the next edit lands without a
review. "Allow for this session" at a prompt grants that exact command. `kesi-permissions`
shows both grants, `kesi-revoke` withdraws them, `kesi-reset` clears the conversation,
`kesi-output` hides and shows `*kesi*`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.session import FAKE_KEY, FAULTY_LINE, KesiEmacs, disk, failing_project, start_kesi

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

FIRST = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)
SECOND = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "def add(a, b):", "new_string": "def add(a, b):  # sum"},
)


def test_for_this_session_then_permissions_revoke_reset_output(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
            reply("First the fix.", FIRST),
            reply("And a note.", SECOND),
            reply("Now the tests.", tool_use("run_command", {"command": "touch ran"})),
            reply("Done."),
            reply("Fresh start.", expect={"message_count": 1}),
        )
    )
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")
    kesi.wait_review()
    ed.type("A")
    kesi.wait_prompt("touch ran")
    ed.type("Allow for this session")
    ed.keys("Enter")
    assert kesi.wait_finished()["status"] == "done"

    assert ed.eval("kesi-review-count") == 1, "the second edit to calc.py was not reviewed"
    assert disk(project, "calc.py").startswith("def add(a, b):  # sum\n")
    assert "return a + b" in disk(project, "calc.py")
    assert (project / "ran").exists()

    # The server's lines: the seed's /permissions, /revoke and /reset, as it words them.
    ed.command("kesi-permissions")
    shown = ed.wait_until(
        lambda: "Allowed commands: touch ran" in (m := ed.messages()) and m,
        "kesi-permissions",
    )
    assert "Allowed files: calc.py" in shown

    ed.command("kesi-revoke")
    revoked = "(all grants for this session have been revoked)"
    ed.wait_until(lambda: revoked in ed.messages(), "revoke")
    ed.command("kesi-permissions")
    ed.wait_until(lambda: "Allowed commands: (none)" in ed.messages(), "none")

    ed.command("kesi-reset")
    cleared = "(history and file version records cleared; starting over)"
    ed.wait_until(lambda: cleared in ed.messages(), "reset")
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("start over")
    ed.keys("Enter")
    assert kesi.wait_finished(count=2)["status"] == "done"  # one message: the history is gone

    visible = '(and (get-buffer-window "*kesi*") t)'
    assert ed.eval(visible) is True
    ed.command("kesi-output")
    ed.wait_until(lambda: ed.eval(visible) is None, "kesi-output to hide *kesi*")
    ed.command("kesi-output")
    ed.wait_until(lambda: ed.eval(visible) is True, "kesi-output to show it again")


def test_kesi_modes_make_m_x_eglot_start_kesi_and_e_opens_ediff(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    """With `kesi-modes` set, `M-x eglot` starts KeSi; `e` in a review shows the edit in
    ediff, and quitting ediff comes back to the review, which still waits for an answer."""
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
            reply("The fix.", FIRST),
            reply("Fixed."),
        )
    )
    ed = open_emacs(
        project,
        "calc.py",
        env={"ANTHROPIC_BASE_URL": api.base_url, "ANTHROPIC_API_KEY": FAKE_KEY},
    )
    ed.eval("(progn (customize-set-variable 'kesi-modes '((python-mode python-ts-mode))) t)")
    ed.command("eglot")
    ed.wait_until(
        lambda: ed.in_file("calc.py", "(and (cl-typep (eglot-current-server) 'kesi-server) t)"),
        "M-x eglot to start KeSi",
    )
    kesi = KesiEmacs(ed)
    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")
    kesi.wait_review()
    ed.type("e")
    ed.wait_screen("*Ediff Control Panel*")
    before_after = ed.eval(
        '(with-current-buffer (get-buffer "*Ediff Control Panel*")'
        " (mapcar #'buffer-name (list ediff-buffer-A ediff-buffer-B)))"
    )
    assert before_after == ["*kesi before: calc.py*", "*kesi after: calc.py*"]
    ed.type("q")
    ed.wait_screen("Quit this Ediff session?")
    ed.type("y")
    ed.wait_until(lambda: (kesi.wait_review() or {}).get("selected"), "back in the review")
    ed.type("a")
    assert kesi.wait_finished()["status"] == "done"
    assert "return a + b" in disk(project, "calc.py")
    assert ed.eval('(get-buffer "*kesi after: calc.py*")') is None, "ediff's buffers are gone"
