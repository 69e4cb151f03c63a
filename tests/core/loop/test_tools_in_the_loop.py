"""The loop with the real tools: the approver is asked when the policy says so, an interrupted
command leaves no process behind (Day 12 #17), and a crashing tool cannot bring the loop down."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from kesi_lsp.core import tools as tool_registry
from kesi_lsp.core.approval import CommandRequest, EditRequest
from kesi_lsp.core.events import ToolFinished, ToolStarted
from kesi_lsp.core.history import check_history
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import MakeAgent


async def test_the_approver_is_asked_for_what_the_policy_says_must_ask(
    make_agent: MakeAgent,
) -> None:
    steps = script(
        reply("先讀。", tool_use("read_file", {"file_path": "notes.txt"})),
        reply(
            "寫一個新檔。",
            tool_use("write_file", {"file_path": "hello.py", "content": 'print("hello")\n'}),
        ),
        reply("跑跑看。", tool_use("run_command", {"command": "python3 hello.py > out.txt"})),
        reply("好了。", expect={"last_tool_result_is_error": False}),
    )
    agent = make_agent(steps)
    root = agent.ctx.session.root
    (root / "notes.txt").write_text("hi\n", encoding="utf-8")
    finished = await agent.ask("寫個 hello")
    assert finished.status == "done"
    asked = agent.approver.asked
    assert [type(a) for a in asked] == [EditRequest, CommandRequest]
    assert isinstance(asked[0], EditRequest) and asked[0].rel == "hello.py"
    assert isinstance(asked[1], CommandRequest) and asked[1].command == "python3 hello.py > out.txt"
    assert (root / "out.txt").read_text(encoding="utf-8") == "hello\n"
    assert [e.name for e in agent.of(ToolStarted)] == ["read_file", "write_file", "run_command"]


def alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper that a container may not have counts as dead)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        status = Path(f"/proc/{pid}/status").read_text(encoding="utf-8")
    except OSError:
        return False
    return "\nState:\tZ" not in status


def pid_in(path: Path) -> int | None:
    try:
        value = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None
    return int(value) if value else None


async def read_pid(path: Path) -> int:
    for _ in range(500):
        pid = pid_in(path)
        if pid is not None:
            return pid
        await asyncio.sleep(0.01)
    raise AssertionError(f"{path.name} never written")


async def test_an_interrupted_command_leaves_no_process_behind(make_agent: MakeAgent) -> None:
    """PASS run_command 被中斷後子行程群組會停止 (through the loop, by cancelling the run)."""
    command = "echo $$ > shell.pid; sleep 20 & echo $! > child.pid; wait"
    steps = script(
        reply(tool_use("run_command", {"command": command})),
        reply("好。", expect={"last_user_text_contains": "還在嗎"}),
    )
    agent = make_agent(steps)
    root = agent.ctx.session.root
    task = asyncio.create_task(agent.ask("跑很久的指令"))
    shell = await read_pid(root / "shell.pid")
    child = await read_pid(root / "child.pid")
    assert alive(shell) and alive(child)
    # Let run_command finish starting the shell: a cancellation that lands inside
    # asyncio.create_subprocess_exec itself is a separate case (see the loop's report).
    await asyncio.sleep(0.5)
    task.cancel()
    finished = await task
    assert finished.status == "cancelled"
    for _ in range(100):
        if not alive(shell) and not alive(child):
            break
        await asyncio.sleep(0.05)
    assert not alive(shell) and not alive(child)
    assert agent.history[2]["content"][0]["content"] == "錯誤：使用者中斷了這個工具。"
    assert check_history(agent.history) == []
    assert (await agent.ask("還在嗎")).status == "done"


async def test_a_crashing_tool_becomes_an_error_result(
    make_agent: MakeAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    """run_tool promises never to raise; if a bug breaks that promise, the loop still holds."""

    async def broken(
        name: str, tool_input: object, ctx: ToolContext, *, call_id: str = ""
    ) -> ToolResult:
        raise RuntimeError("boom")

    monkeypatch.setattr(tool_registry, "run_tool", broken)
    agent = make_agent(script(reply(tool_use("list_files", {})), reply("換個方法。")))
    finished = await agent.ask("列目錄")
    assert finished.status == "done"
    result = agent.history[2]["content"][0]
    assert result["content"] == "錯誤：list_files 執行失敗：RuntimeError"
    assert result["is_error"] is True
    assert agent.of(ToolFinished)[0].is_error
