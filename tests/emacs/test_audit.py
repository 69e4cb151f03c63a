"""`M-x kesi-audit` (issue 29): after a run, the folder's audit log in the server's words, with
the secret the command printed as its marker."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.emacs.conftest import OpenEmacs
from tests.emacs.session import failing_project, start_kesi

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

TOKEN = "ghp_" + "aB3dE5fG7hJ9" * 3


def test_kesi_audit_shows_the_servers_lines(
    open_emacs: OpenEmacs, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    command = f"echo {TOKEN}"
    api = scripted_api(
        script(reply("Noting.", tool_use("run_command", {"command": command})), reply("Done."))
    )
    kesi = start_kesi(open_emacs, project, api.base_url)
    ed = kesi.ed
    ed.command("kesi-ask")
    ed.wait_until(lambda: "Ask KeSi:" in ed.screen_lines()[-1], "the kesi-ask prompt")
    ed.type("note it")
    ed.keys("Enter")
    assert kesi.wait_finished()["status"] == "done"
    ed.command("kesi-audit")
    line = "command `echo [redacted: GitHub token]`: run without asking (all read-only commands)"
    shown = ed.wait_until(lambda: line in (m := ed.messages()) and m, "kesi-audit")
    assert "KeSi audit log of calc" in shown and TOKEN not in shown
