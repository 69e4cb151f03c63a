""":KeSiAudit (issue 29): after a run, the folder's audit log in the server's words, with the
secret the command printed as its marker."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import FAKE_KEY, KesiEditor
from tests.nvim.project import failing_project

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

TOKEN = "ghp_" + "aB3dE5fG7hJ9" * 3


def test_kesi_audit_shows_the_servers_lines(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    command = f"echo {TOKEN}"
    api = scripted_api(
        script(reply("Noting.", tool_use("run_command", {"command": command})), reply("Done."))
    )
    env = {"ANTHROPIC_BASE_URL": api.base_url, "ANTHROPIC_API_KEY": FAKE_KEY}
    ed = open_editor(project, env=env)
    ed.cmd("edit calc.py")
    kesi = KesiEditor(ed)
    kesi.wait_client()
    ed.keys(":KeSiAsk note it<CR>")
    assert kesi.wait_finished()["status"] == "done"
    ed.keys(":KeSiAudit<CR>")
    shown = kesi.notified("KeSi audit log of calc")
    assert (
        "command `echo [redacted: GitHub token]`: run without asking (all read-only commands)"
        in shown
    )
    assert TOKEN not in shown
