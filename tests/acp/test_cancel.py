"""`session/cancel` is the seed's Ctrl-C (Days 12, 17) at every phase of a turn: the model
stream closed, a running command's process group killed, a pending question withdrawn; the
prompt answers `cancelled`, and the next prompt in the session is accepted by the strict
scripted Messages API (every tool_use answered, roles alternating)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, stall_after, tool_use
from tests.acp.conftest import BUGGY
from tests.acp.editor import Agent, EditorClient, acp_agent, agent_env, until
from tests.plugins.scripted_api import StartServer
from tests.processes import processes_with

pytestmark = pytest.mark.e2e

NEXT = reply(
    "Ready for the next task.",
    expect={"last_user_text_contains": "next task"},
    label="the next prompt",
)


async def cancel_then_next(agent: Agent, session: str, pending: asyncio.Task[Any]) -> None:
    started = time.monotonic()
    await agent.conn.cancel(session_id=session)
    done = await asyncio.wait_for(pending, 20)
    assert done.stop_reason == "cancelled"
    assert time.monotonic() - started < 10
    following = await agent.prompt(session, "next task")
    assert following.stop_reason == "end_turn"
    assert agent.client.model_text().endswith("Ready for the next task.")


async def test_cancel_while_the_model_streams(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(script(stall_after(6, "Let me think about this for a long while."), NEXT))
    client = EditorClient()
    async with acp_agent(agent_env(api), client) as agent:
        session = await agent.start(project)
        pending = asyncio.ensure_future(agent.prompt(session, "think"))
        await client.wait_for(client.model_text)
        await cancel_then_next(agent, session, pending)
    assert client.notices("interrupted")


async def test_cancel_while_a_question_waits(project: Path, scripted_api: StartServer) -> None:
    """The client answers a pending question `cancelled` when it cancels (as ACP says): no
    edit lands, and the model is told the question was interrupted."""
    answered = asyncio.Event()

    async def never(call: Any, options: Any) -> None:
        await answered.wait()  # the user walked away; the cancel answers for them
        return None

    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                )
            ),
            reply(
                "Ready for the next task.",
                expect={"last_user_text_contains": "next task"},
            ),
        )
    )
    client = EditorClient(answer=never)
    async with acp_agent(agent_env(api), client) as agent:
        session = await agent.start(project)
        pending = asyncio.ensure_future(agent.prompt(session, "fix calc"))
        await client.wait_for(lambda: client.asked)
        answered.set()
        await cancel_then_next(agent, session, pending)
    assert (project / "calc.py").read_text() == BUGGY
    history = api.requests[-1].body["messages"]
    results = [
        block
        for message in history
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert "interrupted" in str(results[-1]["content"]).lower() or "中斷" in str(results[-1])


async def test_cancel_while_a_command_runs_kills_its_process_group(
    project: Path, scripted_api: StartServer
) -> None:
    marker = f"kesi-acp-cancel-{time.monotonic_ns()}"
    command = f"sh -c 'sleep 60; echo {marker}' & sleep 61 # {marker}"
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": command})),
            reply(
                "Ready for the next task.",
                expect={"last_user_text_contains": "next task"},
            ),
        )
    )
    client = EditorClient(answer=lambda call, options: "allow-once")
    async with acp_agent(agent_env(api), client) as agent:
        session = await agent.start(project)
        pending = asyncio.ensure_future(agent.prompt(session, "run it"))
        await until(lambda: processes_with(marker, zombies=True))
        await cancel_then_next(agent, session, pending)
        assert processes_with(marker, zombies=True) == []
    (card,) = client.cards()
    assert client.card_updates(card["toolCallId"])[-1]["status"] == "failed"


@pytest.mark.subprocess
async def test_the_client_going_away_stops_the_run(
    project: Path, scripted_api: StartServer
) -> None:
    """End of input (the editor quit): the run stops like Ctrl-C and the process ends."""
    api = scripted_api(script(stall_after(6, "Let me think about this for a long while.")))
    client = EditorClient()
    async with acp_agent(agent_env(api), client, process=True) as agent:
        session = await agent.start(project)
        pending = asyncio.ensure_future(agent.prompt(session, "think"))
        await client.wait_for(client.model_text)
    assert agent.process.returncode == 0
    pending.cancel()
    api.allow_problems()  # the stalled request was cut off by the client going away
