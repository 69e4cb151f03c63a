"""The cancellation matrix (Day 12, Day 17): cancel at any moment, keep a sendable history.

Every case cancels the task running `run_agent` at one moment of a round, then checks what the
user would notice — the run says it was interrupted, only complete blocks are kept, no half
tool call, every kept tool_use answered — and finally asks one more question, which the strict
scripted server must accept (it fails the test on any invalid request).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from kesi_lsp.core.events import RunFinished, ToolStarted, UsageReported
from kesi_lsp.core.history import check_history
from kesi_lsp.scripted_api import Step, event_names, reply, script, stall_after, tool_use
from tests.core.loop.conftest import Agent, MakeAgent
from tests.processes import running

TEXT = "我來讀一下設定檔，看看裡面寫了什麼。"
READ = tool_use("read_file", {"file_path": "config.py"})
STREAM_STOPPED = "（這一輪被中斷了，還沒完成的部分沒有留下）"
TOOLS_STOPPED = "（這一輪被中斷了，還沒完成的工作沒有繼續）"
UNKNOWN = "錯誤：使用者中斷，這個工具的執行狀態不明；重試前請先檢查現況。"
NEXT = reply("好，我們繼續。", expect={"last_user_text_contains": "下一個問題"})


def stall_at(names: Callable[[list[str]], int], **kw: Any) -> Step:
    """A reply that goes silent at the event position `names(event_names)` picks."""
    plain = reply(TEXT, READ)
    return stall_after(names(event_names(plain)), TEXT, READ, seconds=30, **kw)


async def cancel_on_stall(agent: Agent, task: asyncio.Task[RunFinished]) -> None:
    await asyncio.to_thread(agent.server.wait_stalled, 5.0)
    await asyncio.sleep(0.3)  # let the client read everything sent before the silence
    task.cancel()


async def interrupt(agent: Agent) -> RunFinished:
    task = asyncio.create_task(agent.ask("讀 config.py"))
    await cancel_on_stall(agent, task)
    return await task


async def then_next_question_works(agent: Agent) -> None:
    assert check_history(agent.history) == []
    finished = await agent.ask("下一個問題")
    assert finished.status == "done" and finished.text == "好，我們繼續。"
    assert check_history(agent.history) == []


def assistant_texts(agent: Agent) -> list[str]:
    out = []
    for message in agent.history:
        if message["role"] != "assistant":
            continue
        content = message["content"]
        if isinstance(content, str):
            out.append(content)
        else:
            out.extend(b["text"] for b in content if b["type"] == "text")
    return out


async def test_before_the_headers(make_agent: MakeAgent) -> None:
    agent = make_agent(script(stall_at(lambda n: 0, before_headers=True), NEXT))
    finished = await interrupt(agent)
    assert finished.status == "cancelled" and finished.text == STREAM_STOPPED
    assert assistant_texts(agent) == [STREAM_STOPPED]
    assert agent.of(UsageReported) == []
    assert agent.notices("interrupted") == [STREAM_STOPPED]
    await then_next_question_works(agent)


async def test_before_message_start(make_agent: MakeAgent) -> None:
    agent = make_agent(script(stall_at(lambda n: 0), NEXT))
    finished = await interrupt(agent)
    assert finished.status == "cancelled"
    assert assistant_texts(agent) == [STREAM_STOPPED]
    assert agent.of(UsageReported) == []
    await then_next_question_works(agent)


async def test_in_the_middle_of_text(make_agent: MakeAgent) -> None:
    agent = make_agent(script(stall_at(lambda n: n.index("text_delta") + 2), NEXT))
    finished = await interrupt(agent)
    assert finished.status == "cancelled"
    assert len(agent.streamed_text()) == 2  # the user saw half a sentence ...
    assert assistant_texts(agent) == [STREAM_STOPPED]  # ... which the history does not keep
    usage = agent.of(UsageReported)
    assert len(usage) == 1 and usage[0].request.partial  # what arrived is billed, marked partial
    await then_next_question_works(agent)


async def test_in_the_middle_of_tool_input(make_agent: MakeAgent) -> None:
    agent = make_agent(script(stall_at(lambda n: n.index("input_json_delta") + 2), NEXT))
    finished = await interrupt(agent)
    assert finished.status == "cancelled"
    assert assistant_texts(agent) == [TEXT, STREAM_STOPPED]
    assert not any(
        b["type"] == "tool_use"
        for m in agent.history
        if isinstance(m["content"], list)
        for b in m["content"]
    )
    assert agent.of(ToolStarted) == []
    await then_next_question_works(agent)


async def test_after_the_whole_message_before_any_tool(make_agent: MakeAgent) -> None:
    """Every event arrived, then silence: the tool_use is whole, kept, and sealed as unknown."""
    agent = make_agent(script(stall_at(len), NEXT))
    finished = await interrupt(agent)
    assert finished.status == "cancelled" and finished.text == STREAM_STOPPED
    assert agent.roles == ["user", "assistant", "user", "assistant"]
    kept = agent.history[1]["content"]
    assert [b["type"] for b in kept] == ["text", "tool_use"]
    sealed = agent.history[2]["content"]
    assert sealed == [
        {"type": "tool_result", "tool_use_id": kept[1]["id"], "content": UNKNOWN, "is_error": True}
    ]
    assert agent.of(ToolStarted) == []  # nothing ran
    await then_next_question_works(agent)


async def test_while_a_tool_runs(make_agent: MakeAgent) -> None:
    slow = reply(TEXT, tool_use("run_command", {"command": "sleep 10.5121"}), READ)
    agent = make_agent(script(slow, NEXT))
    task = asyncio.create_task(agent.ask("跑一下"))
    assert await running("sleep 10.5121")  # past the gate and the process start
    task.cancel()
    finished = await task
    assert finished.status == "cancelled" and finished.text == TOOLS_STOPPED
    results = agent.history[2]["content"]
    assert [r["content"] for r in results] == [
        "錯誤：使用者中斷了這個工具。",
        "錯誤：這一輪已中斷，工具沒有執行。",
    ]
    assert [e.name for e in agent.of(ToolStarted)] == ["run_command"]
    await then_next_question_works(agent)


@pytest.mark.parametrize("when", ["TurnStarted", "UsageReported", "ToolStarted", "ToolFinished"])
async def test_cancel_from_inside_an_event_handler(make_agent: MakeAgent, when: str) -> None:
    """A host that cancels while handling an event (e.g. a progress update) is safe too.

    Cancelled at TurnStarted, the first request never leaves the client, so the next question
    is answered by the first step: the last step therefore answers whatever comes after.
    """
    anything = reply("好，我們繼續。", forever=True)
    agent = make_agent(script(reply(TEXT, tool_use("list_files", {})), anything))
    task: asyncio.Task[RunFinished] | None = None
    emit = agent.ctx.emit

    def cancelling_emit(event: Any) -> None:
        emit(event)
        if type(event).__name__ == when and task is not None:
            task.cancel()

    agent.ctx.emit = cancelling_emit
    task = asyncio.create_task(agent.ask("列目錄"))
    finished = await task
    agent.ctx.emit = emit
    assert finished.status == "cancelled"
    assert not task.cancelled()  # run_agent returns its result; it does not re-raise
    await then_next_question_works(agent)


PROMPT_STOPPED = "錯誤：使用者中斷了授權詢問。"


@pytest.mark.parametrize(
    "call",
    [
        tool_use("run_command", {"command": "touch late"}),
        tool_use("write_file", {"file_path": "late.py", "content": "x = 1\n"}),
    ],
    ids=["command", "write"],
)
async def test_while_the_user_is_asked(make_agent: MakeAgent, call: Any) -> None:
    """Day 14: cancelled while the permission question waits, the tool says exactly that,
    the rest of the batch is marked not run, and nothing happened on disk."""
    agent = make_agent(script(reply(TEXT, call, READ), NEXT))
    asked = asyncio.Event()

    async def never(request: object) -> Any:
        asked.set()
        await asyncio.sleep(3600)

    agent.approver.approve_command = never  # type: ignore[method-assign]
    agent.approver.approve_edit = never  # type: ignore[method-assign]
    task = asyncio.create_task(agent.ask("做吧"))
    await asyncio.wait_for(asked.wait(), 10)
    task.cancel()
    finished = await task
    assert finished.status == "cancelled" and finished.text == TOOLS_STOPPED
    results = agent.history[2]["content"]
    assert [r["content"] for r in results] == [PROMPT_STOPPED, "錯誤：這一輪已中斷，工具沒有執行。"]
    assert not (agent.ctx.session.root / "late").exists()
    assert not (agent.ctx.session.root / "late.py").exists()
    await then_next_question_works(agent)
