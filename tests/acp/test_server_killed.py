"""Nothing KeSi starts outlives `kesi-lsp acp`, also when it is killed (issue 34, design §3).

The agent process is killed with SIGKILL while two sessions' commands run (each a shell with a
background child): within 2 s no process of either is left, with the real bubblewrap sandbox
and with `sandbox: off`. Its end when the client's pipe closes without a word is
tests/acp/test_cancel.py's (`test_the_client_going_away_stops_the_run`).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.killed import GONE_SECONDS, MODES, STARTED_SECONDS, folder, usable
from tests.lsp.working_loop import until
from tests.plugins.scripted_api import StartServer
from tests.processes import gone, marked_sleeps, sleeping, unique_sleep

pytestmark = [pytest.mark.e2e, pytest.mark.subprocess]


@pytest.mark.parametrize("mode", MODES)
async def test_a_killed_agent_leaves_no_command_of_any_session_behind(
    mode: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    first, second = folder(tmp_path, "first"), folder(tmp_path, "second")
    usable(mode, first)
    markers = unique_sleep(), unique_sleep()
    api = scripted_api(
        script(
            *(
                reply(tool_use("run_command", {"command": marked_sleeps(m)}, id=f"toolu_{i}"))
                for i, m in enumerate(markers)
            )
        )
    )
    api.allow_problems()  # the runs never get to send their next requests
    client = EditorClient(answer=lambda call, options: "allow-once")
    env = agent_env(api, KESI_SANDBOX=mode, KESI_LOCALE="en")
    async with acp_agent(env, client, process=True) as agent:
        sessions = [await agent.start(root) for root in (first, second)]
        pending = [asyncio.ensure_future(agent.prompt(s, "Wait for me.")) for s in sessions]
        await until(lambda: all(sleeping(m) == 2 for m in markers), STARTED_SECONDS)
        agent.process.kill()  # SIGKILL: the editor's agent process is simply gone
        deadline = time.monotonic() + GONE_SECONDS
        for marker in markers:
            assert await gone(marker, max(0.0, deadline - time.monotonic())) == []
        await agent.process.wait()
        for prompt in pending:
            prompt.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
