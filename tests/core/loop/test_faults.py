"""Every fault the scripted server can inject: a clear message, no crash, a valid history, and
the next question works (the strict server accepts it)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from kesi_lsp.core.events import ToolStarted
from kesi_lsp.core.history import check_history
from kesi_lsp.scripted_api import (
    Step,
    error_event_after,
    event_names,
    http_error,
    reply,
    reset_after,
    script,
    stall_after,
    tool_use,
)
from tests.core.loop.conftest import MakeAgent

TEXT = "我來跑測試。"
RUN = tool_use("run_command", {"command": "pytest -q"})
MID_TOOL = event_names(reply(TEXT, RUN)).index("input_json_delta") + 2


@dataclass(frozen=True)
class Case:
    steps: tuple[Step, ...]
    zh: str
    en: str
    max_retries: int = 1
    timeout: float | None = None
    kept_text: bool = False


CASES = {
    "429 rate limit with retry-after": Case(
        (http_error(429, retry_after=0.2, times=2),),
        "錯誤：重試後仍被限流（429），等一下再試。",
        "Error: still rate-limited (429) after retries; try again in a moment.",
    ),
    "529 overloaded": Case(
        (http_error(529, times=2),),
        "錯誤：伺服器忙碌中（529），重試後仍未成功，等一下再試。",
        "Error: the server is overloaded (529) and retries did not help",
    ),
    "500 api error": Case(
        (http_error(500, message="Internal server error.", times=2),),
        "錯誤：API 回應 500：Internal server error.",
        "Error: the API answered 500: Internal server error.",
    ),
    "400 prompt too long": Case(
        (http_error(400, message="prompt is too long: 210000 tokens > 200000 maximum"),),
        "錯誤：請求被拒絕（400）：prompt is too long: 210000 tokens > 200000 maximum。"
        "如果是對話太長，可以用「kesi.reset」指令清空後重來。",
        "Error: the request was rejected (400): prompt is too long",
    ),
    "connection reset mid tool input": Case(
        (reset_after(MID_TOOL, TEXT, RUN),),
        "錯誤：回應到一半，和 API 的連線斷了（ReadError：",
        "Error: the connection to the API broke off in the middle of the reply (ReadError",
        kept_text=True,
    ),
    "error event mid stream": Case(
        (error_event_after(MID_TOOL, TEXT, RUN, message="Overloaded"),),
        "錯誤：回應到一半，API 回報錯誤（overloaded_error）：Overloaded",
        "Error: the API reported an error in the middle of its reply (overloaded_error)",
        kept_text=True,
    ),
    "stall mid stream": Case(
        (stall_after(MID_TOOL, TEXT, RUN, seconds=10),),
        "錯誤：等待模型回應逾時。",
        "Error: timed out waiting for the model's response.",
        timeout=0.5,
        kept_text=True,
    ),
    "stall before headers": Case(
        (stall_after(0, TEXT, RUN, seconds=10, before_headers=True, times=2),),
        "錯誤：等待模型回應逾時。",
        "Error: timed out waiting for the model's response.",
        timeout=0.5,
    ),
}


@pytest.mark.parametrize("locale", ["zh-TW", "en"])
@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.slow) if n == "stall before headers" else n
        for n in sorted(CASES)  # the SDK's own retry waits before giving up on the headers
    ],
)
async def test_fault(make_agent: MakeAgent, name: str, locale: str) -> None:
    case = CASES[name]
    follow_up = reply("好了。", expect={"last_user_text_contains": "再試一次"})
    agent = make_agent(
        script(*case.steps, follow_up),
        locale=locale,
        max_retries=case.max_retries,
        timeout=case.timeout,
    )
    finished = await agent.ask("跑測試")
    assert finished.status == "failed"
    assert finished.text.startswith(case.zh if locale == "zh-TW" else case.en), finished.text
    assert agent.notices("error") == [finished.text]
    assert agent.of(ToolStarted) == []  # a failed round never runs a tool
    assert check_history(agent.history) == []
    if case.kept_text:
        # The stream had started: its finished text is kept, then the error is written down.
        assert agent.history[-1]["content"] == [
            {"type": "text", "text": TEXT},
            {"type": "text", "text": finished.text},
        ]
    else:
        # The request failed before any reply: the history is exactly as before (Day 12).
        assert agent.history == [{"role": "user", "content": "跑測試"}]
    again = await agent.ask("再試一次")
    assert again.status == "done" and again.text == "好了。"
    assert check_history(agent.history) == []


async def test_retries_are_announced_before_the_wait(make_agent: MakeAgent) -> None:
    agent = make_agent(script(http_error(429, retry_after=1), reply("好了。")), locale="en")
    finished = await agent.ask("hi")
    assert finished.status == "done"
    assert agent.notices("retry") == [
        "The API answered 429 rate_limit_error; retrying in 1 s as it asked (retry 1 of 2)."
    ]


async def test_no_server_at_all_is_a_connection_error(make_agent: MakeAgent) -> None:
    agent = make_agent(script(reply("好了。")), max_retries=1)
    agent.server.stop()  # now nobody listens where the client points
    finished = await agent.ask("你好")
    retries = agent.notices("retry")
    assert finished.status == "failed"
    assert finished.text.startswith("錯誤：連不上 API：")
    assert agent.history == [{"role": "user", "content": "你好"}]
    assert len(retries) == 1 and "連線錯誤" in retries[0]
