"""Permission rules from the Neovim user's own setup(): a command runs without a prompt, and
:KeSiPermissions shows the rules in force, in the server's words."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import FAKE_KEY, KesiEditor
from tests.nvim.project import failing_project

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

RULES = {"allow": ["touch made-by-rule.txt"], "deny": ["git push*"]}


def test_rules_from_setup_decide_and_are_listed(
    open_editor: OpenEditor, scripted_api, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Making it.", tool_use("run_command", {"command": "touch made-by-rule.txt"})),
            reply("Done.", expect={"last_tool_result_is_error": False}),
        )
    )
    env = {"ANTHROPIC_BASE_URL": api.base_url, "ANTHROPIC_API_KEY": FAKE_KEY}
    ed = open_editor(project, env=env, setup={"server": {"permissions": RULES}})
    ed.cmd("edit calc.py")
    kesi = KesiEditor(ed)
    kesi.wait_client()
    ed.keys(":KeSiAsk make the file<CR>")
    assert kesi.wait_finished()["status"] == "done"
    assert ed.selects() == [], "the rule decided: no prompt"
    assert (project / "made-by-rule.txt").exists()
    ed.keys(":KeSiPermissions<CR>")
    shown = kesi.notified("Permission rules: ")  # the server's lines, as it words them
    assert "Allowed commands: (none)" in shown
    assert "allow touch made-by-rule.txt (initialization options)" in shown
    assert "deny git push* (initialization options)" in shown
