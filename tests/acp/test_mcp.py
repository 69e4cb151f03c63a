"""MCP servers an ACP client sends with `session/new` (until issue 26 KeSi answered "not
supported yet"): a real server nobody here wrote (PyPI `mcp-server-time`) starts in the
background, the scripted model calls its tool, the client's permission prompt names the server,
the tool and the arguments, and its answer decides whether the result reaches the model."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from acp.schema import EnvVariable, McpServerStdio

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TIME_SERVER = shutil.which("mcp-server-time", path=str(Path(sys.executable).parent))
CALL = tool_use("mcp__time__get_current_time", {"timezone": "Asia/Tokyo"})


def time_server() -> McpServerStdio:
    assert TIME_SERVER is not None
    return McpServerStdio(
        name="time",
        command=TIME_SERVER,
        args=["--local-timezone", "UTC"],
        env=[EnvVariable(name="TZ", value="UTC")],
    )


@pytest.mark.skipif(TIME_SERVER is None, reason="mcp-server-time is not installed")
@pytest.mark.parametrize(("option", "seen"), [("allow-once", "Asia/Tokyo"), ("reject", "refused")])
async def test_a_session_mcp_tool_is_asked_for_and_the_answer_decides(
    project: Path, scripted_api: StartServer, option: str, seen: str
) -> None:
    api = scripted_api(
        script(reply(CALL), reply("Done.", expect={"last_tool_result_contains": seen}))
    )
    client = EditorClient(answer=lambda call, options: option)
    async with acp_agent(agent_env(api), client) as agent:
        made = await agent.conn.new_session(cwd=str(project), mcp_servers=[time_server()])
        assert made.field_meta == {"kesi": {"mcpServers": {"connecting": ["time"]}}}
        done = await agent.prompt(made.session_id, "What time is it in Tokyo?")
    assert done.stop_reason == "end_turn"
    (asked,) = client.asked
    said = str(asked.tool_call)
    assert "MCP server time wants to run its tool get_current_time" in said
    assert "Asia/Tokyo" in said
    (card,) = [c for c in client.cards() if "get_current_time" in c["title"]]
    assert card["title"] == "get_current_time (MCP server time)"


async def test_a_malformed_session_server_is_said_and_left_out(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Hello.")))
    client = EditorClient()
    bad = McpServerStdio(name="bad name!", command="/usr/bin/true", args=[], env=[])
    async with acp_agent(agent_env(api), client) as agent:
        made = await agent.conn.new_session(cwd=str(project), mcp_servers=[bad])
        assert made.field_meta == {"kesi": {"mcpServers": {"connecting": []}}}
        await agent.prompt(made.session_id, "hi")
    (said,) = client.notices("mcp")
    assert "the MCP server bad name! is left out" in said
