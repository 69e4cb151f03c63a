"""Signing in to a remote MCP server with OAuth, over the real wire: a real `kesi-lsp` process
talks to a loopback MCP server behind the SDK's own OAuth (`tests/mcp/oauth_server.py`). The
server first needs sign-in and says which command does it; `kesi.mcpLogin` gives the address
(and asks the editor to open it); the "browser" follows it; the tools are then listed and
called through the gate; `kesi.mcpLogout` deletes the tokens and the server needs sign-in
again."""

from __future__ import annotations

import asyncio
import stat
import time
from pathlib import Path
from typing import Any

import httpx2
import pytest
from lsprotocol import types

from kesi_lsp.core.mcp.account import sign_in_file
from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing.editor import ALLOW_ONCE
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.servers import Subprocess
from tests.mcp.oauth_server import oauth_loopback
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.subprocess]

CALL = tool_use("mcp__web__greet", {"name": "KeSi"})


async def settled(client: Any, wanted: str) -> dict[str, Any]:
    """`kesi.mcp`'s one server once it is in the state `wanted` (it starts, then settles)."""
    deadline = time.monotonic() + 120
    while True:
        listed: dict[str, Any] = await client.command("kesi.mcp", {})
        (server,) = listed["servers"]
        if server["state"] == wanted:
            return server
        assert time.monotonic() < deadline, listed["lines"]
        await asyncio.sleep(0.2)  # kesi.mcp is asked again: the state is polled, not awaited


async def test_sign_in_lets_the_tools_through_and_sign_out_takes_it_back(
    project: Path, tmp_path: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(reply(CALL), reply("Greeted.", expect={"last_tool_result_contains": "Hello, KeSi"}))
    )
    state = tmp_path / "state"
    env = {**api_env(api), "XDG_STATE_HOME": str(state)}
    async with oauth_loopback(tmp_path) as url:
        init = {"kesi": {"mcpServers": {"web": {"type": "http", "url": url}}}}
        async with kesi_client(
            "vscode", [project], env=env, server=Subprocess(), init_options=init
        ) as client:
            before = await settled(client, "auth")
            assert "asks for authorization (HTTP 401)" in before["reason"]
            assert "kesi.mcpLogin" in before["reason"]

            began = await client.command("kesi.mcpLogin", {"server": "web"})
            assert began["ok"], began
            assert began["lines"][0] == (
                "To sign in to the MCP server web, open this address in your browser:"
            )
            address = began["lines"][1]
            assert address.startswith(url.removesuffix("/mcp") + "/authorize?")
            assert "redirect_uri=http%3A%2F%2F127.0.0.1%3A" in address
            opened = await client.timeline.wait_for(
                lambda m, p: m == types.WINDOW_SHOW_DOCUMENT, 30
            )
            assert opened.uri == address and opened.external is True

            async with httpx2.AsyncClient(follow_redirects=True, trust_env=False) as browser:
                page = await browser.get(address)
            assert page.status_code == 200
            assert "KeSi is signed in to the MCP server web" in page.text
            await client.timeline.wait_shown("Signed in to the MCP server web", 60)

            ready = await settled(client, "ready")
            assert ready["tools"] == ["greet"]
            token_file = sign_in_file({"XDG_STATE_HOME": str(state)}, url)
            assert token_file is not None and token_file.is_file()
            assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
            assert stat.S_IMODE(token_file.parent.stat().st_mode) == 0o700

            client.answer_prompt = lambda params: ALLOW_ONCE
            done = await client.run("kesi.ask", {"prompt": "Greet KeSi."})
            assert done["status"] == "done", done
            (asked,) = client.prompts
            assert "MCP server web wants to run its tool greet" in asked.message

            gone = await client.command("kesi.mcpLogout", {"server": "web"})
            assert gone == {
                "ok": True,
                "lines": ["Signed out of the MCP server web: its tokens are deleted."],
            }
            assert not token_file.exists()
            after = await settled(client, "auth")
            assert "kesi.mcpLogin" in after["reason"]
            again = await client.command("kesi.mcpLogout", {"server": "web"})
            assert again["ok"] is False
