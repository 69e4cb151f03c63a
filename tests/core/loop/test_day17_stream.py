"""Day 17's acceptance checks ("打開 streaming": 8/8), against the scripted server over HTTP.

The seed had to fake the SDK's stream for the "half a tool call" and "error mid-stream" cases,
because its mock could not cut a stream; the scripted server can, so every case here runs the
real SDK over real SSE.
"""

from __future__ import annotations

import asyncio
from typing import Any

import anthropic

from kesi_lsp.core.events import TextDelta, ToolStarted, UsageReported
from kesi_lsp.core.history import check_history, seal_dangling_tool_use
from kesi_lsp.scripted_api import (
    error_event_after,
    event_names,
    reply,
    script,
    stall_after,
    tool_use,
)
from tests.core.loop.conftest import Agent, MakeAgent

FAIL = reply(
    "我看一下這個檔案。", tool_use("read_file", {"file_path": "不存在的檔案.txt"}), forever=True
)
READ = ("我來讀一下", tool_use("read_file", {"file_path": "note.txt"}))
INTERRUPTED = "（這一輪被中斷了，還沒完成的部分沒有留下）"


def kept_blocks(history: list[Any]) -> list[Any]:
    return [
        block
        for message in history
        if message["role"] == "assistant" and isinstance(message["content"], list)
        for block in message["content"]
    ]


async def cancel_on_stall(agent: Agent, task: asyncio.Task[Any], settle: float = 0.3) -> None:
    """Cancel `task` once the server has gone silent and the client has read what came before."""
    await asyncio.to_thread(agent.server.wait_stalled, 5.0)
    await asyncio.sleep(settle)
    task.cancel()


async def test_a_streamed_run_leaves_an_alternating_history(make_agent: MakeAgent) -> None:
    """PASS 日記是 user、assistant 交錯 / PASS 沒有懸空的許願單"""
    agent = make_agent(script(FAIL))
    await agent.ask("讀一個不存在的檔案")
    assert agent.roles == ["user", "assistant"] * 4
    assert check_history(agent.history) == []


async def test_text_arrives_in_several_pieces(make_agent: MakeAgent) -> None:
    """PASS 文字分成多次印出"""
    agent = make_agent(script(reply("（mock）好了。")))
    finished = await agent.ask("隨便講一句")
    pieces = agent.streamed_text()
    assert len(pieces) >= 2
    assert "".join(pieces) == finished.text == "（mock）好了。"


async def test_half_a_tool_call_never_enters_the_history(make_agent: MakeAgent) -> None:
    """PASS 半截的工具單沒有進日記 / PASS 中斷後沒有懸空的許願單"""
    step = stall_after(0, *READ)
    cut = event_names(step).index("input_json_delta") + 3  # a few JSON pieces are in
    agent = make_agent(script(stall_after(cut, *READ), reply("好。")))
    task = asyncio.create_task(agent.ask("讀檔"))
    await cancel_on_stall(agent, task)
    finished = await task
    assert finished.status == "cancelled" and finished.text == INTERRUPTED
    blocks = kept_blocks(agent.history)
    assert [b["type"] for b in blocks] == ["text", "text"]
    assert blocks[0]["text"] == "我來讀一下" and blocks[1]["text"] == INTERRUPTED
    assert agent.of(ToolStarted) == []
    assert check_history(agent.history) == []
    assert (await agent.ask("繼續")).status == "done"


async def test_cancel_before_message_start_keeps_nothing(make_agent: MakeAgent) -> None:
    """PASS message_start 前中斷，不會去讀不存在的快照"""
    agent = make_agent(script(stall_after(0, *READ, before_headers=True), reply("好。")))
    task = asyncio.create_task(agent.ask("讀檔"))
    await cancel_on_stall(agent, task, settle=0.05)
    finished = await task
    assert finished.status == "cancelled"
    assert not [b for b in kept_blocks(agent.history) if b["text"] != INTERRUPTED]
    assert agent.history == [
        {"role": "user", "content": "讀檔"},
        {"role": "assistant", "content": [{"type": "text", "text": INTERRUPTED}]},
    ]
    assert agent.of(UsageReported) == []  # nothing arrived, nothing billed
    assert (await agent.ask("再試一次")).status == "done"


async def test_an_error_mid_stream_keeps_only_the_finished_text(make_agent: MakeAgent) -> None:
    """PASS 串流途中出錯只留下完成的文字"""
    step = error_event_after(0, *READ)
    after_text = event_names(step).index("content_block_stop") + 2  # text done, tool started
    agent = make_agent(script(error_event_after(after_text, *READ), reply("好。")))
    finished = await agent.ask("讀檔")
    assert finished.status == "failed"
    assert finished.text.startswith("錯誤：回應到一半，API 回報錯誤（overloaded_error）")
    blocks = kept_blocks(agent.history)
    assert all(b["type"] == "text" for b in blocks)
    assert blocks[0]["text"] == "我來讀一下" and blocks[-1]["text"] == finished.text
    assert agent.of(ToolStarted) == []
    assert check_history(agent.history) == []
    assert len(agent.server.requests) == 1  # a broken stream is not retried
    assert (await agent.ask("繼續")).status == "done"


async def test_a_sealed_history_is_accepted_by_the_strict_server(make_agent: MakeAgent) -> None:
    """PASS 補完之後的日記送到 mock 也收到回應"""
    agent = make_agent(script(reply("好了。", expect={"last_tool_result_is_error": True})))
    history: list[Any] = [
        {"role": "user", "content": "讀檔"},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "我來讀一下"},
                {
                    "type": "tool_use",
                    "id": "toolu_complete",
                    "name": "read_file",
                    "input": {"file_path": "note.txt"},
                },
            ],
        },
    ]
    assert seal_dangling_tool_use(history, "zh-TW")
    client = anthropic.AsyncAnthropic(api_key="sk-ant-test", base_url=agent.server.base_url)
    from kesi_lsp.core import tools as tool_registry

    response = await client.messages.create(
        model="claude-haiku-4-5",
        max_tokens=1024,
        tools=tool_registry.tool_schemas("zh-TW"),
        messages=history,
    )
    await client.close()
    assert response.stop_reason == "end_turn"
    assert len(history) == 3


async def test_text_deltas_are_emitted_before_the_reply_ends(make_agent: MakeAgent) -> None:
    """The point of streaming: the first words reach the user while the model still talks."""
    slow = reply("第一句話。" * 6, timing={"event_delay": 0.05})
    agent = make_agent(script(slow))
    task = asyncio.create_task(agent.ask("講話"))
    for _ in range(200):
        if agent.of(TextDelta):
            break
        await asyncio.sleep(0.01)
    assert agent.of(TextDelta) and not task.done()
    await task
