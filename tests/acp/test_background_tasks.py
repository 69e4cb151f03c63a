"""Background tasks in an ACP client (issue 28), over the real stdio of `kesi-lsp acp` with the
real `anthropic` SDK against the scripted Messages API, in the real bubblewrap sandbox.

A task is a tool call card of its own: opened `in_progress` when it starts, still running after
the prompt turn that started it was answered, fed with its newest output through
`tool_call_update`s, `completed` when the model stops it in a later turn, `failed` when it exits
with another code by itself. The client going away stops it (no process left behind).
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.killed import GONE_SECONDS, usable
from tests.plugins.scripted_api import StartServer
from tests.processes import gone, processes_with

pytestmark = [pytest.mark.e2e, pytest.mark.subprocess]

CARD = "kesi-task-1"


def shown(update: dict[str, Any]) -> str:
    """The text a card update shows (its content), "" when it has none."""
    return "".join(c["content"]["text"] for c in update.get("content", []))


async def test_a_task_is_a_card_that_runs_on_shows_its_output_and_completes_when_stopped(
    project: Path, scripted_api: StartServer
) -> None:
    usable("bubblewrap", project)
    marker = f"kesi-acp-task-{secrets.token_hex(4)}"
    ticker = f"i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.2; done # {marker}"
    api = scripted_api(
        script(
            reply("Starting it.", tool_use("run_command", {"command": ticker, "background": True})),
            reply("It runs.", expect={"last_tool_result_contains": "Started background task 1"}),
            reply(
                "Stopping it.",
                tool_use("task_stop", {"task_id": "1"}),
                expect={"last_user_text_contains": "stop it"},
            ),
            reply("Stopped.", expect={"last_tool_result_contains": "Stopped task 1"}),
        )
    )
    client = EditorClient(answer=lambda call, options: "allow-once")
    env = agent_env(api, KESI_SANDBOX="bubblewrap", KESI_LOCALE="en")
    async with acp_agent(env, client, process=True) as agent:
        session = await agent.start(project)
        done = await agent.prompt(session, "start the ticker")
        assert done.stop_reason == "end_turn"
        card = next(c for c in client.cards() if c["toolCallId"] == CARD)
        assert card["title"] == f"Background task 1: {ticker}"
        assert card["kind"] == "execute" and card["status"] == "in_progress"
        assert card["rawInput"] == {"taskId": "1", "command": ticker}
        assert card["_meta"]["kesi"]["lines"] == [f"[KeSi] background task 1 started: {ticker}"]
        run_card = next(c for c in client.cards() if c["toolCallId"] != CARD)
        assert client.card_updates(run_card["toolCallId"])[-1]["status"] == "completed"

        # After the turn was answered, the card goes on showing what the task prints.
        await client.wait_for(lambda: "tick 12" in "".join(map(shown, client.card_updates(CARD))))
        updates = client.card_updates(CARD)
        assert all("status" not in u for u in updates)  # still in_progress
        appended = "".join(u["_meta"]["kesi"]["appended"] for u in updates)
        assert "tick 1\ntick 2\ntick 3\n" in appended
        assert len(updates) < 12  # throttled: not one update per line

        stopped = await agent.prompt(session, "stop it")
        assert stopped.stop_reason == "end_turn"
        await client.wait_for(lambda: "status" in client.card_updates(CARD)[-1])
        last = client.card_updates(CARD)[-1]
        assert last["status"] == "completed"
        assert last["rawOutput"]["state"] == "stopped"
        assert last["_meta"]["kesi"]["lines"] == [f"[KeSi] background task 1 stopped: {ticker}"]
        assert "tick" in shown(last)
        assert processes_with(marker) == []


async def test_a_task_that_fails_by_itself_fails_its_card_after_the_turn(
    project: Path, scripted_api: StartServer
) -> None:
    usable("bubblewrap", project)
    marker = project / "go"
    build = "echo compiling; while [ ! -e go ]; do sleep 0.1; done; echo 'error: 2 failed'; exit 3"
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": build, "background": True})),
            reply("Building in the background."),
        )
    )
    client = EditorClient(answer=lambda call, options: "allow-once")
    env = agent_env(api, KESI_SANDBOX="bubblewrap", KESI_LOCALE="en")
    async with acp_agent(env, client, process=True) as agent:
        session = await agent.start(project)
        assert (await agent.prompt(session, "build it")).stop_reason == "end_turn"
        assert all("status" not in u for u in client.card_updates(CARD))
        marker.write_text("")  # the build ends now, with no prompt running
        await client.wait_for(lambda: "status" in (client.card_updates(CARD) or [{}])[-1])
        last = client.card_updates(CARD)[-1]
        assert last["status"] == "failed"
        assert last["rawOutput"] == {"state": "exited", "exitCode": 3}
        assert shown(last) == "compiling\nerror: 2 failed"
        assert last["_meta"]["kesi"]["lines"] == [
            f"[KeSi] background task 1 exited with code 3: {build}"
        ]


async def test_the_client_going_away_stops_the_session_s_tasks(
    project: Path, scripted_api: StartServer
) -> None:
    usable("bubblewrap", project)
    marker = f"kesi-acp-left-{secrets.token_hex(4)}"
    api = scripted_api(
        script(
            reply(
                tool_use("run_command", {"command": f"sleep 300 # {marker}", "background": True})
            ),
            reply("Left it running."),
        )
    )
    client = EditorClient(answer=lambda call, options: "allow-once")
    env = agent_env(api, KESI_SANDBOX="bubblewrap", KESI_LOCALE="en")
    async with acp_agent(env, client, process=True) as agent:
        session = await agent.start(project)
        assert (await agent.prompt(session, "sleep")).stop_reason == "end_turn"
        assert processes_with(marker)
    assert agent.process.returncode == 0
    assert await gone(marker, GONE_SECONDS) == []
