"""Background tasks through the real tools, in the real bubblewrap sandbox (issue 28).

The model's view: run_command(background: true) answers at once with a task id and the first
output; task_output reads what is new; task_stop ends the whole group; a later foreground
command of the same session reaches the task's server on 127.0.0.1; nothing is left behind.
"""

from __future__ import annotations

import secrets
import socket

import pytest

from kesi_lsp.core.background.words import ended_note
from kesi_lsp.core.tools import ToolResult, run_tool
from tests.core.sandbox.agents import Agent, agent
from tests.core.sandbox.conftest import Playground, bubblewrap
from tests.processes import gone, processes_with

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def start(me: Agent, command: str) -> ToolResult:
    return await run_tool("run_command", {"command": command, "background": True}, me.ctx)


async def output(me: Agent, task_id: str, **more: object) -> ToolResult:
    return await run_tool("task_output", {"task_id": task_id, **more}, me.ctx)


async def stop(me: Agent, task_id: str) -> ToolResult:
    return await run_tool("task_stop", {"task_id": task_id}, me.ctx)


async def test_a_dev_server_answers_a_later_curl_and_is_stopped(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground))
    port, marker = free_port(), f"kesi-srv-{secrets.token_hex(4)}"
    started = await start(me, f"python3 -u -m http.server {port} --bind 127.0.0.1 # {marker}")
    assert not started.is_error, started.text
    assert started.text.startswith("Started background task 1: `python3 -u -m http.server")
    assert f"Serving HTTP on 127.0.0.1 port {port}" in started.text
    assert 'task_stop(task_id: "1")' in started.text
    assert processes_with(marker)
    curl = await me.run(f"curl -s -o /dev/null -w 'status=%{{http_code}}' http://127.0.0.1:{port}/")
    assert "status=200" in curl.text, curl.text
    read = await output(me, "1")
    assert read.text.startswith("Task 1 `python3 -u -m http.server")
    assert ": running." in read.text.splitlines()[0]
    assert '"GET / HTTP/1.1" 200' in read.text
    again = await output(me, "1")
    assert "(no new output)" in again.text
    stopped = await stop(me, "1")
    assert stopped.text.startswith("Stopped task 1 `python3"), stopped.text
    assert await gone(marker) == []
    ended = await stop(me, "1")
    assert "had already ended (stopped); there is nothing to stop." in ended.text


@pytest.mark.slow
async def test_another_session_does_not_reach_the_task(playground: Playground) -> None:
    """The shared namespace is the session's: a second session (another ACP thread in the
    same folder) keeps a network of its own, as every command did before."""
    me, other = agent(playground, bubblewrap(playground)), agent(playground, bubblewrap(playground))
    port, marker = free_port(), f"kesi-srv-{secrets.token_hex(4)}"
    await start(me, f"python3 -u -m http.server {port} --bind 127.0.0.1 # {marker}")
    curl = await other.run(
        f"curl -s -o /dev/null -w 'status=%{{http_code}}' http://127.0.0.1:{port}/"
    )
    assert "status=000" in curl.text, curl.text
    await me.ctx.session.tasks.stop_all()
    assert await gone(marker) == []


async def test_a_task_that_ends_at_once_answers_with_its_end(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground))
    started = await start(me, "echo one; echo two; exit 3")
    assert started.is_error
    assert started.text.splitlines()[:3] == [
        "Background task 1 `echo one; echo two; exit 3` already ended: exited with code 3. "
        "Its output:",
        "one",
        "two",
    ]
    assert me.ctx.session.tasks.take_ended() == []  # the model saw its end right there


@pytest.mark.slow
async def test_a_task_that_ends_later_is_noted_once(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground))
    started = await start(me, "echo ready; sleep 2.5; echo 'build failed: 2 errors'; exit 1")
    assert "Started background task 1" in started.text
    task = me.ctx.session.tasks.get("1")
    assert task is not None
    await task.ended_by_itself()
    note = ended_note(me.ctx.session.tasks.take_ended(), "en")
    assert note == (
        "[KeSi] Background tasks that ended since your last request:\n"
        "- task 1 `echo ready; sleep 2.5; echo 'build failed: 2 errors'; exit 1` exited with "
        "code 1; last lines:\n    ready\n    build failed: 2 errors"
    )
    assert me.ctx.session.tasks.take_ended() == []  # told once


@pytest.mark.slow
async def test_the_fifth_task_is_refused_without_asking(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground))
    marker = f"kesi-sleep-{secrets.token_hex(4)}"
    for _ in range(4):
        assert not (await start(me, f"sleep 60 # {marker}")).is_error
    asked = len(me.approver.commands)
    fifth = await start(me, f"sleep 61 # {marker}")
    assert fifth.is_error
    assert fifth.text.startswith("Error: 4 background tasks are already running in this session")
    assert "Stop one with task_stop first, or run the command without background." in fifth.text
    assert len(me.approver.commands) == asked  # nobody was asked for a refused start
    me.ctx.session.reset()  # a reset stops them all
    assert await gone(marker) == []


@pytest.mark.slow
async def test_unknown_ids_and_huge_or_broken_output(playground: Playground) -> None:
    me = agent(playground, bubblewrap(playground))
    unknown = await output(me, "7")
    assert unknown.is_error
    assert unknown.text == "Error: there is no background task 7 in this session. Tasks: none."
    broken = await start(me, "printf 'bad \\377\\376 bytes\\n'")
    assert broken.text.endswith("Its output:\nbad \ufffd\ufffd bytes"), broken.text
    # It prints only after the start's first-output window (2 s), which would otherwise take
    # all of it on a quiet machine, where 50 MB are printed in well under a second.
    await start(me, "sleep 3; head -c 52428800 /dev/zero | tr '\\0' x; echo; echo end")
    task = me.ctx.session.tasks.get("2")
    assert task is not None
    await task.ended_by_itself()
    read = await output(me, "2")
    dropped = "bytes printed before this were no longer kept: a task keeps its last 1048576"
    assert dropped in read.text
    assert read.text.startswith("Task 2 `sleep 3; head -c")
    assert ": exited with code 0." in read.text.splitlines()[0]
    assert read.text.endswith("x\nend")
    assert "bytes omitted in the middle" in read.text
    assert len(read.text.encode()) < 9000
    first = await output(me, "2", lines=1)
    assert first.text.endswith("\nend")
