"""KeSi next to the usual server: eglot gives a buffer one server, so both run behind one.

rassumfrassum (`rass`, an LSP multiplexer from PyPI that newer eglot already lists for
Python) starts pylsp and kesi-lsp and merges them into one connection; `kesi-program` is
the only change (the README's recipe). Then pylsp still answers hover in the buffer, and
KeSi's whole flow (review, prompt, save) works through the multiplexer.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.harness import VENV_BIN
from tests.emacs.session import (
    CALC_FIXED,
    FAKE_KEY,
    FAULTY_LINE,
    KesiEmacs,
    disk,
    failing_project,
)

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]


def test_kesi_and_pylsp_behind_rass(open_emacs: OpenEmacs, scripted_api, tmp_path: Path) -> None:
    rass, pylsp = (
        shutil.which("rass", path=str(VENV_BIN)),
        shutil.which("pylsp", path=str(VENV_BIN)),
    )
    assert rass and pylsp, (
        f"rassumfrassum and python-lsp-server are in the test extra ({sys.executable})"
    )
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                "The fix.",
                tool_use(
                    "edit_file",
                    {
                        "file_path": "calc.py",
                        "old_string": "return a - b",
                        "new_string": "return a + b",
                    },
                ),
            ),
            reply("Fixed."),
        )
    )
    ed = open_emacs(
        project, "calc.py", env={"ANTHROPIC_BASE_URL": api.base_url, "ANTHROPIC_API_KEY": FAKE_KEY}
    )
    preset = Path(__file__).with_name("rass_patient.py")  # rass's 3 s initialize wait
    ed.eval(f'(progn (setq kesi-program \'("rass" "{preset}" "--" "pylsp" "--" "kesi-lsp")) t)')
    kesi = KesiEmacs(ed)
    kesi.start()

    # pylsp's hover on `add`, through the same eglot connection.
    hover = ed.in_file(
        "calc.py",
        "(let ((r (jsonrpc-request (eglot-current-server) :textDocument/hover"
        " (list :textDocument (eglot--TextDocumentIdentifier)"
        " :position (list :line 0 :character 5)))))"
        ' (format "%S" r))',
    )
    assert "Return the sum of a and b." in hover, hover

    kesi.goto_line(FAULTY_LINE)
    ed.command("kesi-fix-this")
    kesi.wait_review()
    ed.type("a")
    assert kesi.wait_finished()["status"] == "done"
    assert ed.file_lines("calc.py") == CALC_FIXED.split("\n")
    assert disk(project, "calc.py") == CALC_FIXED
    assert ed.in_file("calc.py", "(buffer-modified-p)") is None
