"""`M-x kesi-mcp-login` and `M-x kesi-mcp-logout` (issue 26): sign in to a remote MCP server
behind the SDK's own OAuth (`tests/mcp/oauth_server.py`) from Emacs. The server's words with
the address show in the echo area; the test follows the address as the browser would; the
server says it is signed in; signing out deletes the tokens, in the server's words too."""

from __future__ import annotations

import re
from pathlib import Path

import httpx2
import pytest

from kesi_lsp.core.mcp.account import sign_in_file
from tests.emacs.conftest import OpenEmacs
from tests.emacs.session import failing_project, start_kesi
from tests.mcp.oauth_server import oauth_loopback_process

pytestmark = [pytest.mark.editor, pytest.mark.e2e, pytest.mark.slow]


def test_kesi_mcp_login_and_logout(open_emacs: OpenEmacs, scripted_api, tmp_path: Path) -> None:
    project = failing_project(tmp_path / "calc")
    api = scripted_api([])
    state = tmp_path / "state"
    with oauth_loopback_process(tmp_path) as url:
        settings = {"mcpServers": {"web": {"type": "http", "url": url}}}
        env = {"XDG_STATE_HOME": str(state)}
        kesi = start_kesi(open_emacs, project, api.base_url, settings=settings, env=env)
        ed = kesi.ed
        ed.command("kesi-mcp-login")
        ed.wait_until(lambda: "Sign in to the MCP server:" in ed.screen_lines()[-1], "the prompt")
        ed.type("web")
        ed.keys("Enter")
        said = ed.wait_until(
            lambda: "/authorize?" in (m := ed.messages()) and m, "the address to open", 60
        )
        assert "To sign in to the MCP server web, open this address in your browser:" in said
        found = re.search(r"http://127\.0\.0\.1:\d+/authorize\?\S+", said)
        assert found is not None, said
        with httpx2.Client(follow_redirects=True, trust_env=False) as browser:
            page = browser.get(found.group(0))
        assert page.status_code == 200 and "signed in" in page.text
        ed.wait_until(
            lambda: "Signed in to the MCP server web" in ed.messages() or None,
            "the server to say it is signed in",
            60,
        )
        token_file = sign_in_file({"XDG_STATE_HOME": str(state)}, url)
        assert token_file is not None and token_file.is_file()

        ed.command("kesi-mcp-logout")
        ed.wait_until(lambda: "Sign out of the MCP server:" in ed.screen_lines()[-1], "prompt")
        ed.type("web")
        ed.keys("Enter")
        ed.wait_until(
            lambda: (
                "Signed out of the MCP server web: its tokens are deleted." in ed.messages() or None
            ),
            "the server to say the tokens are deleted",
        )
        assert not token_file.exists()
