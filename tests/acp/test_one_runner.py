"""ACP runs through the same agent runner as the language server: its model client is kept
for the connection's life, so a later run (in the same session or another) reuses the warm
HTTP connection instead of loading certificates and connecting again (issue 14's <= 20 ms)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e


async def test_later_runs_reuse_the_first_runs_connection(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("One."), reply("Two."), reply("Three.")))
    client = EditorClient()
    async with acp_agent(agent_env(api), client) as agent:
        first = await agent.start(project)
        await agent.prompt(first, "one")
        await agent.prompt(first, "two")
        await agent.prompt(await agent.start(project), "three")
    assert [r.status for r in api.requests] == [200, 200, 200]
    peers = {r.peer for r in api.requests}
    assert len(peers) == 1, f"each run opened its own connection: {sorted(peers)}"
