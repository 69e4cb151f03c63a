"""Servers never hold a run up ("done means": with two servers configured, the first request of
a run is not delayed by their start): two MCP servers that never answer `initialize` are
configured, a run is started at once, and it reaches the model, is answered and ends while
both are still starting. Ordering, not timing: it holds however loaded the machine is (the
servers' `initialize` bound is 60 s)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.mcp.servers import fault
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


async def test_a_run_does_not_wait_for_servers_still_starting(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Answered without them.")))
    init = {"kesi": {"mcpServers": {"one": fault("hang"), "two": fault("hang")}}}
    async with kesi_client("vscode", [project], env=api_env(api), init_options=init) as client:
        done = await client.run("kesi.ask", {"prompt": "hello"})
        listed = await client.command("kesi.mcp", {})
    assert done["status"] == "done" and done["text"] == "Answered without them."
    assert [s["state"] for s in listed["servers"]] == ["starting", "starting"], listed["lines"]
    (request,) = api.requests
    assert not any(t["name"].startswith("mcp__") for t in request.body["tools"])
