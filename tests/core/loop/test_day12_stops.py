"""Day 12's acceptance checks ("讓迴圈停得下來"), against the scripted server over HTTP.

Each check of `examples/day12/check.py` is a test here, named after the seed's PASS line.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from kesi_lsp.core.events import ToolStarted
from kesi_lsp.core.history import seal_dangling_tool_use
from kesi_lsp.scripted_api import http_error, reply, script, tool_use
from tests.core.loop.conftest import MakeAgent
from tests.processes import running

LOOP = reply("我再看一次目錄。", tool_use("list_files", {}), forever=True)


def wandering(rounds: int) -> list[Any]:
    """A model that never concludes but never repeats itself exactly either (each call lists
    the same folder under another spelling), so only the turn limit can stop it."""
    return [
        reply("我再看一次目錄。", tool_use("list_files", {"path": "." + "/." * i}))
        for i in range(rounds)
    ]


FAIL = reply(
    "我看一下這個檔案。", tool_use("read_file", {"file_path": "不存在的檔案.txt"}), forever=True
)


@pytest.mark.slow
async def test_endless_tool_calls_are_stopped_by_max_turns(make_agent: MakeAgent) -> None:
    """PASS 無限開單會被 MAX_TURNS 攔住 / PASS 用滿上限後日記結尾是 assistant"""
    agent = make_agent(script(*wandering(20)), max_retries=0)
    finished = await agent.ask("看一下目錄")
    assert finished.status == "limit" and finished.limit == "max_turns"
    assert "20 次模型往返" in finished.text
    assert len(agent.server.requests) == 20
    assert agent.history[-1]["role"] == "assistant"
    assert "先停下來" in agent.history[-1]["content"]
    assert len(agent.history) == 42  # 1 user + 20 x (assistant + user) + 1 assistant
    agent.assert_history_sound()


async def test_max_turns_follows_the_setting(make_agent: MakeAgent) -> None:
    agent = make_agent(script(*wandering(4)), max_retries=0, max_turns=4)
    finished = await agent.ask("看一下目錄")
    assert "4 次模型往返" in finished.text
    assert len(agent.server.requests) == 4


async def test_consecutive_failures_stop_early(make_agent: MakeAgent) -> None:
    """PASS 連續失敗會提早停"""
    agent = make_agent(script(FAIL))
    finished = await agent.ask("讀一個不存在的檔案")
    assert finished.status == "limit" and finished.limit == "tool_failures"
    assert "連續 3 輪全部失敗" in finished.text and "第 3 圈" in finished.text
    assert len(agent.server.requests) == 3
    assert agent.history[-1] == {"role": "assistant", "content": finished.text}


async def test_one_success_resets_the_failure_count(make_agent: MakeAgent) -> None:
    """fail, fail, ok, fail, fail does not stop at the fourth failure (the reset matters)."""
    bad = reply(tool_use("read_file", {"file_path": "nope.txt"}))
    good = reply(tool_use("list_files", {}))
    agent = make_agent(script(bad, bad, good, bad, bad, reply("查不到那個檔案。")))
    finished = await agent.ask("找檔案")
    assert finished.status == "done"
    assert finished.text == "查不到那個檔案。"
    assert len(agent.server.requests) == 6


@pytest.mark.slow
async def test_429_is_retried_by_the_sdk_and_each_retry_is_visible(make_agent: MakeAgent) -> None:
    """PASS 429 會被 SDK 自動重試 / 重試用盡回錯誤訊息而不是 traceback / API 失敗不會在日記
    留下半截訊息"""
    agent = make_agent(script(http_error(429, forever=True)))
    finished = await agent.ask("你好")
    assert len(agent.server.requests) == 3
    assert finished.status == "failed"
    assert finished.text.startswith("錯誤：重試後仍被限流")
    assert agent.history == [{"role": "user", "content": "你好"}]
    retries = agent.notices("retry")
    assert len(retries) == 2 and all("429" in r for r in retries)


@pytest.mark.slow
async def test_retry_after_is_honoured(make_agent: MakeAgent) -> None:
    """PASS retry-after 指定的秒數會被照做"""
    agent = make_agent(script(http_error(429, retry_after=2, forever=True)), max_retries=1)
    started = time.monotonic()
    await agent.ask("你好")
    elapsed = time.monotonic() - started
    assert 1.9 <= elapsed <= 3.5
    assert "2 秒後重試" in agent.notices("retry")[0]


async def test_529_is_retried_and_the_message_is_clear(make_agent: MakeAgent) -> None:
    """PASS 529 會重試，訊息說得清楚"""
    agent = make_agent(script(http_error(529, forever=True)), max_retries=1)
    finished = await agent.ask("你好")
    assert len(agent.server.requests) == 2
    assert finished.text.startswith("錯誤：伺服器忙碌中")


async def test_400_is_not_retried(make_agent: MakeAgent) -> None:
    """PASS 400 不重試，直接回報"""
    agent = make_agent(script(http_error(400, message="prompt is too long", forever=True)))
    finished = await agent.ask("你好")
    assert len(agent.server.requests) == 1
    assert "請求被拒絕（400）" in finished.text and "prompt is too long" in finished.text
    assert "可以用「kesi.reset」指令清空後重來。" in finished.text  # an editor KeSi does not know
    assert agent.notices("retry") == []


async def test_400_with_x_should_retry_is_retried(make_agent: MakeAgent) -> None:
    """PASS 400 有 x-should-retry: true 仍會重試"""
    step = http_error(400, headers={"x-should-retry": "true"}, forever=True)
    agent = make_agent(script(step), max_retries=1)
    finished = await agent.ask("你好")
    assert len(agent.server.requests) == 2
    assert "請求被拒絕（400）" in finished.text


@pytest.mark.slow
async def test_500_twice_then_ok_is_invisible_to_the_answer(make_agent: MakeAgent) -> None:
    """PASS 500 重試兩次後成功，使用者無感"""
    agent = make_agent(script(http_error(500, times=2), reply("（mock）好了。")))
    finished = await agent.ask("你好")
    assert len(agent.server.requests) == 3
    assert finished.status == "done" and "好了" in finished.text
    assert len(agent.notices("retry")) == 2  # visible as notices, not as a failure


async def test_max_tokens_reports_the_output_limit_and_runs_nothing(make_agent: MakeAgent) -> None:
    """PASS max_tokens 會回報輸出上限 (and Day 10: a cut reply runs no tool)"""
    cut = reply(
        "我來寫檔案",
        tool_use("run_command", {"command": "rm -rf build"}, raw_json='{"command": "rm -rf'),
        stop_reason="max_tokens",
    )
    agent = make_agent(script(cut))
    finished = await agent.ask("寫個檔案")
    assert finished.status == "limit" and finished.limit == "max_tokens"
    assert "輸出達到 max_tokens" in finished.text
    assert agent.of(ToolStarted) == []
    assert agent.history[-1] == {"role": "assistant", "content": finished.text}
    assert len(agent.history) == 2
    agent.assert_history_sound()


async def test_context_window_reports_the_context_limit(make_agent: MakeAgent) -> None:
    """PASS context window 會回報 context 上限"""
    cut = reply(tool_use("list_files", {}), stop_reason="model_context_window_exceeded")
    agent = make_agent(script(cut))
    finished = await agent.ask("列目錄")
    assert "回應填滿 context window" in finished.text and finished.limit == "context_window"
    assert agent.of(ToolStarted) == []


async def test_every_tool_call_gets_a_result_after_a_tool_is_interrupted(
    make_agent: MakeAgent,
) -> None:
    """PASS 工具被中斷後每張許願單都有結果"""
    two_tools = reply(
        "先跑個指令再列目錄。",
        tool_use("run_command", {"command": "sleep 10.7121"}),
        tool_use("list_files", {}),
    )
    after = reply("好，接著問。", expect={"last_user_text_contains": "下一題"})
    agent = make_agent(script(two_tools, after))
    task = asyncio.create_task(agent.ask("跑一下"))
    assert await running("sleep 10.7121")  # the command is running: cancel it there
    task.cancel()
    finished = await task
    assert finished.status == "cancelled" and "中斷" in finished.text
    results = agent.history[2]["content"]
    assert [r["content"] for r in results] == [
        "錯誤：使用者中斷了這個工具。",
        "錯誤：這一輪已中斷，工具沒有執行。",
    ]
    assert all(r["is_error"] for r in results)
    assert agent.history[-1] == {
        "role": "assistant",
        "content": "（這一輪被中斷了，還沒完成的工作沒有繼續）",
    }
    agent.assert_history_sound()
    assert (await agent.ask("下一題")).status == "done"


def test_a_dangling_tool_use_gets_a_result() -> None:
    """PASS 懸空的許願單會被補上結果"""
    history: list[Any] = [
        {"role": "user", "content": "讀檔"},
        {
            "role": "assistant",
            "content": [
                {"type": "tool_use", "id": "toolu_x", "name": "read_file", "input": {}},
            ],
        },
    ]
    assert seal_dangling_tool_use(history, "zh-TW") is True
    assert len(history) == 3
    last = history[-1]
    assert last["role"] == "user"
    assert last["content"][0]["tool_use_id"] == "toolu_x"
    assert "執行狀態不明" in last["content"][0]["content"]
    assert last["content"][0]["is_error"] is True


def test_nothing_is_added_when_nothing_dangles() -> None:
    """PASS 沒有懸空時不會亂補"""
    history: list[Any] = [{"role": "user", "content": "hi"}]
    assert seal_dangling_tool_use(history, "zh-TW") is False
    assert history == [{"role": "user", "content": "hi"}]


async def test_a_tool_call_under_another_stop_reason_is_neither_run_nor_kept(
    make_agent: MakeAgent,
) -> None:
    odd = reply("我想讀檔。", tool_use("read_file", {"file_path": "a.py"}), stop_reason="end_turn")
    agent = make_agent(script(odd, reply("好。")))
    finished = await agent.ask("讀檔")
    assert finished.status == "done" and finished.text == "我想讀檔。"
    assert agent.of(ToolStarted) == []
    kept = agent.history[-1]["content"]
    assert kept == [{"type": "text", "text": "我想讀檔。"}]
    agent.assert_history_sound()
    assert (await agent.ask("再來")).status == "done"


@pytest.mark.parametrize("blank", ["", "  \n"])
async def test_a_blank_question_sends_nothing_and_keeps_the_history(
    make_agent: MakeAgent, blank: str
) -> None:
    agent = make_agent(script(reply("好。")))
    finished = await agent.ask(blank)
    assert finished.status == "failed" and "空的" in finished.text
    assert agent.history == [] and agent.server.requests == []
    assert (await agent.ask("真的問題")).status == "done"
