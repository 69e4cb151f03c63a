"""An MCP server in Neovim (issue 26): a server configured in the user's setup() is listed by
:KeSiMcp with its tools, in the server's words; a scripted model calls one of its tools, the
question (server, tool, arguments) comes up in the editor (vim.ui.select), the user answers it
there, and the tool's result reaches the model (the scripted API's recorded request shows it).
The server is the in-repo fault server in its well-behaved mode (`echo` says the text back)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.mcp.servers import fault
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import start_kesi, tool_result_text
from tests.nvim.project import failing_project
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

CALL = tool_use("mcp__fault__echo", {"text": "hello from neovim"})


def test_an_mcp_server_is_listed_and_its_tool_is_asked_for_and_answered_in_neovim(
    open_editor: OpenEditor, scripted_api: StartServer, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api(
        script(
            reply("Echoing.", CALL),
            reply("It said it back.", expect={"last_tool_result_contains": "hello from neovim"}),
        )
    )
    setup = {"server": {"mcpServers": {"fault": fault("ok")}}}
    kesi = start_kesi(open_editor, project, api.base_url, setup=setup)
    ed = kesi.ed

    shown = kesi.mcp_listing("fault", lambda last: "tools: " in last and "dangerous" in last)
    assert "MCP fault (initialization options, " in shown and "): ready" in shown, shown
    assert "echo" in shown and "read" in shown, shown
    ed.keys(":KeSiAsk echo it<CR>")
    asked = kesi.wait_select()
    assert "MCP server fault wants to run its tool echo with" in asked["prompt"], asked
    assert '{"text": "hello from neovim"}' in asked["prompt"], asked
    assert asked["items"][0] == "Deny", asked
    ed.keys(f"{asked['items'].index('Allow for this session') + 1}<CR>")
    assert kesi.wait_finished()["status"] == "done"
    assert len(api.requests) == 2, [r.body["messages"][-1] for r in api.requests]
    answered = tool_result_text(api.requests[1].body)
    assert "echo: hello from neovim" in answered, answered
    assert "<data" in answered  # marked as untrusted content for the model
    ed.keys(":KeSiPermissions<CR>")
    assert "Allowed MCP tools: mcp:fault:echo" in kesi.notified("Allowed MCP tools")
