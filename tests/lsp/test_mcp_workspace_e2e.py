"""A folder's `.mcp.json` over the real wire: its servers start only after the editor's user
approves them (the prompt names each program), the answer is remembered across restarts of
the language server per folder and per server definition (an edited definition asks again),
and a no is remembered and said, with the server never started nor offered to the model."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing.editor import ALLOW_SESSION, DENY
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.mcp_folder import QUESTION, START, listed_ready
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TIME_SERVER = shutil.which("mcp-server-time", path=str(Path(sys.executable).parent))
NEEDS_TIME = pytest.mark.skipif(
    TIME_SERVER is None, reason="mcp-server-time is not installed (pip install -e '.[test]')"
)
CALL = tool_use("mcp__time__get_current_time", {"timezone": "Asia/Tokyo"})


def declare(project: Path, timezone: str = "UTC") -> None:
    servers = {"time": {"command": TIME_SERVER, "args": ["--local-timezone", timezone]}}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def answers(servers: str) -> Any:
    """Answer the `.mcp.json` question with `servers`, and any tool call with yes."""
    return lambda params: servers if QUESTION in params.message else ALLOW_SESSION


@NEEDS_TIME
async def test_approved_servers_start_are_remembered_and_a_changed_one_asks_again(
    project: Path, scripted_api: StartServer
) -> None:
    declare(project)
    api = scripted_api(
        script(
            reply(CALL),
            reply("Late in Tokyo.", expect={"last_tool_result_contains": "Asia/Tokyo"}),
            reply("Still late."),
            reply("Changed."),
        )
    )
    env = api_env(api)
    async with kesi_client("vscode", [project], env=env) as client:
        client.answer_prompt = answers(START)
        before = await client.command("kesi.mcp", {})
        assert before["servers"] == []  # nothing starts before the user says so
        assert any("would start: time: " in line for line in before["lines"]), before
        done = await client.run("kesi.ask", {"prompt": "What time is it in Tokyo?"})
        assert done["status"] == "done", done
        asked, tool = client.prompts
        assert QUESTION in asked.message and f"time: {TIME_SERVER} --local-timezone UTC" in (
            asked.message
        )
        assert [a.title for a in asked.actions or []] == [DENY, START]  # no first
        assert "MCP server time wants to run its tool get_current_time" in tool.message
        listed = await listed_ready(client)
        assert listed["servers"][0]["source"] == "workspace"
        assert listed["servers"][0]["state"] == "ready", listed["lines"]
    async with kesi_client("vscode", [project], env=env) as client:
        client.answer_prompt = answers(DENY)
        listed = await listed_ready(client)  # started at start-up, before any run: remembered
        assert listed["servers"][0]["state"] == "ready", listed["lines"]
        done = await client.run("kesi.ask", {"prompt": "again"})
        assert done["status"] == "done" and client.prompts == []  # not asked again
        declare(project, "Asia/Tokyo")  # the definition changed: asked again
        done = await client.run("kesi.ask", {"prompt": "changed"})
        assert done["status"] == "done"
        (asked,) = client.prompts
        assert "--local-timezone Asia/Tokyo" in asked.message
    assert "mcp__time__get_current_time" in [t["name"] for t in api.requests[2].body["tools"]]
    assert "mcp__time__get_current_time" not in [t["name"] for t in api.requests[3].body["tools"]]


@NEEDS_TIME
async def test_a_no_is_remembered_said_and_nothing_starts(
    project: Path, scripted_api: StartServer
) -> None:
    declare(project)
    api = scripted_api(script(reply("No time tools here."), reply("Still none.")))
    env = api_env(api)
    refused = "(MCP servers of the folder's .mcp.json not started, as you answered: time ("
    async with kesi_client("neovim", [project], env=env) as client:
        client.answer_prompt = answers(DENY)
        done = await client.run("kesi.ask", {"prompt": "time?"})
        assert done["status"] == "done" and len(client.prompts) == 1
        said = client.log_lines()  # the run's story, as this client shows it
        assert any(refused in line for line in said), said
        listed = await client.command("kesi.mcp", {})
        assert listed["servers"] == []
        assert listed["lines"][-1].startswith("The folder's .mcp.json was not approved for: time")
    async with kesi_client("neovim", [project], env=env) as client:
        client.answer_prompt = answers(START)
        done = await client.run("kesi.ask", {"prompt": "time now?"})
        assert done["status"] == "done" and client.prompts == []  # the no was remembered
        said = client.log_lines()  # the run's story, as this client shows it
        assert any(refused in line for line in said), said
        assert (await client.command("kesi.mcp", {}))["servers"] == []
    for request in api.requests:
        assert not any(t["name"].startswith("mcp__") for t in request.body["tools"])
