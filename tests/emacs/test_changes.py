"""KeSi's change sets in a real Emacs with kesi.el (design §2.9): the changes not reviewed yet
are flymake notes; `kesi-changes` lists them; `kesi-undo` on one takes it back (and `undo`
brings it back); `kesi-keep` keeps the other; `kesi-undo-run` after a second run; a code
action on a change shows the server's answer."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.harness import elisp_string
from tests.emacs.session import disk, start_kesi

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
ONLY_SUB = CALC.replace("sub(a, b):\n    return a + b", "sub(a, b):\n    return a - b")
WRITE = tool_use("write_file", {"file_path": "calc.py", "content": FIXED})
READ = tool_use("read_file", {"file_path": "calc.py"})
NOTES = (
    "(sort (mapcar (lambda (d) (line-number-at-pos (flymake-diagnostic-beg d)))"
    ' (seq-filter (lambda (d) (string-match-p "not reviewed yet" (flymake-diagnostic-text d)))'
    " (flymake-diagnostics))) #'<)"
)


def project(root: Path) -> Path:
    root.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "calc"\n')
    (root / "calc.py").write_text(CALC)
    return root


def test_notes_list_undo_keep_and_undo_run(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    root = project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Reading.", READ),
            reply("Both.", WRITE),
            reply("Done."),
            reply("Again.", READ, expect={"last_user_text_contains": "Undone by the user"}),
            reply("Both again.", WRITE),
            reply("Done again."),
        )
    )
    kesi = start_kesi(open_emacs, root, api.base_url, settings={"approvals": "acceptEdits"})
    ed = kesi.ed
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("fix the signs")
    ed.keys("Enter")
    assert kesi.wait_finished()["status"] == "done"
    assert disk(root, "calc.py") == FIXED
    ed.wait_until(lambda: ed.in_file("calc.py", NOTES) == [2, 6], "a flymake note on each change")

    ed.command("kesi-changes")
    listed = ed.wait_until(
        lambda: [line for line in ed.lines("*kesi changes*") if "KeSi" in line and ":" in line],
        "the *kesi changes* list",
    )
    assert [line.split(":")[:2] for line in listed if line.startswith("calc.py")] == [
        ["calc.py", "2"],
        ["calc.py", "6"],
    ]

    calc = elisp_string(str((root / "calc.py").resolve()))
    ed.eval(f"(progn (pop-to-buffer (find-buffer-visiting {calc})) t)")
    kesi.goto_line(2)
    ed.command("kesi-undo")
    ed.wait_until(lambda: "KeSi: undid calc.py line 2." in ed.messages(), "the undo's answer")
    ed.wait_until(lambda: disk(root, "calc.py") == ONLY_SUB, "the undo saved")
    assert "\n".join(ed.file_lines("calc.py")) == ONLY_SUB
    ed.wait_until(lambda: ed.in_file("calc.py", NOTES) == [6], "only the second change still noted")

    kesi.goto_line(6)
    ed.command("eglot-code-actions")  # the code action on the change, as in plain eglot
    ed.wait_screen("(default KeSi: keep this change)")
    ed.keys("Enter")
    ed.wait_until(lambda: "KeSi: kept calc.py line 6." in ed.messages(), "the keep's answer")
    ed.wait_until(lambda: ed.in_file("calc.py", NOTES) in (None, []), "nothing left to review")
    ed.command("kesi-keep")  # again: nothing happens twice, and it says so
    ed.wait_until(
        lambda: "Nothing to do: calc.py line 6 already kept." in ed.messages(), "keep again"
    )

    # A second run: the model hears what happened to its changes; then undo the whole run.
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("once more")
    ed.keys("Enter")
    assert kesi.wait_finished(count=2)["status"] == "done"
    assert disk(root, "calc.py") == FIXED
    ed.command("kesi-undo-run")
    ed.wait_until(lambda: "KeSi: undid calc.py line 2." in ed.messages(), "undo-run's answer")
    ed.wait_until(lambda: disk(root, "calc.py") == ONLY_SUB, "the run taken back")
