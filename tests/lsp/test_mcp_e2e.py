"""MCP over the real wire: a scripted model calls a tool of a real MCP server nobody here
wrote (PyPI `mcp-server-time`) through the language server, the editor is asked (server, tool,
arguments), and the answer decides whether the result reaches the model. `kesi.mcp` lists the
server with its tools; `kesi.permissions` lists the session's MCP grant."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing.editor import ALLOW_SESSION, DENY
from tests.lsp.clients import EDITOR_PRESETS, kesi_client
from tests.lsp.helpers import api_env, wait_for
from tests.lsp.mcp_folder import listed_ready
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TIME_SERVER = shutil.which("mcp-server-time", path=str(Path(sys.executable).parent))
NEEDS_TIME = pytest.mark.skipif(
    TIME_SERVER is None, reason="mcp-server-time is not installed (pip install -e '.[test]')"
)
CALL = tool_use("mcp__time__get_current_time", {"timezone": "Asia/Tokyo"})


def servers() -> dict[str, Any]:
    return {"time": {"command": TIME_SERVER, "args": ["--local-timezone", "UTC"]}}


@NEEDS_TIME
@pytest.mark.parametrize("preset", EDITOR_PRESETS)
async def test_a_real_mcp_tool_is_asked_for_and_its_result_reaches_the_model(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    allowed = preset != "helix"  # Helix has no prompts: nobody to ask is a no
    expected = "Asia/Tokyo" if allowed else "refused this MCP tool call"
    api = scripted_api(
        script(
            reply(CALL),
            reply("It is late in Tokyo.", expect={"last_tool_result_contains": expected}),
        )
    )
    init = {"kesi": {"mcpServers": servers()}}
    async with kesi_client(preset, [project], env=api_env(api), init_options=init) as client:
        client.answer_prompt = lambda params: ALLOW_SESSION
        listed = await listed_ready(client)
        assert listed["servers"][0]["state"] == "ready", listed["lines"]
        assert listed["servers"][0]["tools"] == ["convert_time", "get_current_time"]
        assert any("get_current_time" in line for line in listed["lines"])
        done = await client.run("kesi.ask", {"prompt": "What time is it in Tokyo?"})
        assert done["status"] == "done", done
        if allowed:
            (asked,) = client.prompts
            assert "MCP server time wants to run its tool get_current_time" in asked.message
            assert '{"timezone": "Asia/Tokyo"}' in asked.message
            granted = await client.command("kesi.permissions", {})
            assert granted["tools"] == ["mcp:time:get_current_time"]
    tools = [t["name"] for t in api.requests[0].body["tools"]]
    assert "mcp__time__get_current_time" in tools and tools.index("read_file") == 0


@NEEDS_TIME
async def test_no_means_the_server_is_never_called(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply(CALL),
            reply("ok", expect={"last_tool_result_contains": "refused this MCP tool call"}),
        )
    )
    init = {"kesi": {"mcpServers": servers()}}
    async with kesi_client("vscode", [project], env=api_env(api), init_options=init) as client:
        client.answer_prompt = lambda params: DENY
        await listed_ready(client)
        done = await client.run("kesi.ask", {"prompt": "time?"})
        assert done["status"] == "done"
        await wait_for(lambda: len(client.prompts) == 1)


async def test_kesi_mcp_without_servers_says_how_to_add_one(project: Path) -> None:
    async with kesi_client("neovim", [project]) as client:
        listed = await client.command("kesi.mcp", {})
    assert listed["servers"] == []
    assert listed["lines"] == [
        "No MCP servers are configured (the mcpServers setting, the ACP client's session, or "
        "an approved .mcp.json in the folder)."
    ]
