"""Signing in to a remote MCP server from Neovim (issue 26): `:KeSiMcpLogin web` shows the
server's words with the address, and Neovim is asked to open it in the browser (`vim.ui.open`,
recorded here instead of starting one); the test follows the address as the browser would; the
server says it is signed in and `:KeSiMcp` lists the tool; `:KeSiMcpLogout web` says the tokens
are deleted and the server needs sign-in again. The MCP server is the SDK's own, behind its own
OAuth (`tests/mcp/oauth_server.py`)."""

from __future__ import annotations

from pathlib import Path

import httpx2
import pytest

from kesi_lsp.core.mcp.account import sign_in_file
from tests.mcp.oauth_server import oauth_loopback_process
from tests.nvim.conftest import OpenEditor
from tests.nvim.kesi_session import start_kesi
from tests.nvim.project import failing_project
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]

RECORD_OPEN = (
    "vim.ui.open = function(uri) _G.kesi_opened = uri "
    "return { wait = function() return { code = 0 } end } end"
)


def test_sign_in_and_out_of_a_remote_mcp_server_in_neovim(
    open_editor: OpenEditor, scripted_api: StartServer, tmp_path: Path
) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api([])
    state = tmp_path / "state"
    with oauth_loopback_process(tmp_path) as url:
        setup = {"server": {"mcpServers": {"web": {"type": "http", "url": url}}}}
        env = {"XDG_STATE_HOME": str(state)}
        kesi = start_kesi(open_editor, project, api.base_url, env=env, setup=setup)
        ed = kesi.ed
        ed.lua(RECORD_OPEN)
        assert kesi.mcp_listing("web", lambda last: "kesi.mcpLogin" in last)

        ed.keys(":KeSiMcpLogin web<CR>")
        said = kesi.notified("To sign in to the MCP server web")
        address = ed.wait("_G.kesi_opened", "Neovim asked to open the address", 30)
        assert address.startswith(url.removesuffix("/mcp") + "/authorize?")
        assert address in said, said

        with httpx2.Client(follow_redirects=True, trust_env=False) as browser:
            page = browser.get(address)
        assert page.status_code == 200 and "signed in" in page.text
        ed.wait_until(
            lambda: "Signed in to the MCP server web" in ed.messages() or None,
            "the server to say it is signed in",
            60,
        )
        assert "greet" in kesi.mcp_listing("web", lambda last: "ready" in last)
        token_file = sign_in_file({"XDG_STATE_HOME": str(state)}, url)
        assert token_file is not None and token_file.is_file()

        ed.keys(":KeSiMcpLogout web<CR>")
        gone = kesi.notified("Signed out of the MCP server web")
        assert "its tokens are deleted" in gone
        assert not token_file.exists()
        assert kesi.mcp_listing("web", lambda last: "kesi.mcpLogin" in last)
