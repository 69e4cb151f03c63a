"""The scripted server speaks the real Messages API wire format to the real SDK."""

from __future__ import annotations

import json

import anthropic
import httpx2
import pytest

from kesi_lsp.scripted_api import (
    error_event_after,
    event_names,
    http_error,
    plan_events,
    reply,
    reset_after,
    script,
    stall_after,
    tool_use,
)
from tests.plugins.scripted_api import StartServer

TOOLS = [
    {
        "name": "write_file",
        "description": "Write a file.",
        "strict": True,
        "input_schema": {
            "type": "object",
            "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["file_path", "content"],
            "additionalProperties": False,
        },
    }
]
HELLO = {"file_path": "hello.py", "content": 'print("hello")\n'}


def client(base_url: str, **kw: object) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="sk-ant-test", base_url=base_url, **kw)  # type: ignore[arg-type]


def ask(c: anthropic.Anthropic, **kw: object) -> anthropic.types.Message:
    return c.messages.create(  # type: ignore[call-overload, no-any-return]
        model="claude-haiku-4-5",
        max_tokens=256,
        messages=[{"role": "user", "content": "create hello.py"}],
        tools=TOOLS,
        **kw,
    )


def test_stream_sends_every_event_kind_and_cuts_tool_json_mid_token(
    scripted_api: StartServer,
) -> None:
    step = reply("我來建立檔案。", tool_use("write_file", HELLO))
    server = scripted_api(script(step))
    with client(server.base_url).messages.stream(
        model="claude-haiku-4-5",
        max_tokens=256,
        messages=[{"role": "user", "content": "create hello.py"}],
        tools=TOOLS,  # type: ignore[arg-type]
    ) as stream:
        raw = list(stream)
        final = stream.get_final_message()
    kinds = [e.type for e in raw]
    assert kinds[0] == "message_start" and kinds[-1] == "message_stop"
    assert "message_delta" in kinds
    json_pieces = [
        e.delta.partial_json
        for e in raw
        if e.type == "content_block_delta" and e.delta.type == "input_json_delta"
    ]
    whole = json.dumps(HELLO, ensure_ascii=False)
    assert "".join(json_pieces) == whole
    assert len(json_pieces) >= 4 and json_pieces[0] == ""
    # At least one cut lands inside a string literal: the piece is not valid JSON on its own.
    assert any(p.count('"') % 2 == 1 for p in json_pieces[1:])
    text_pieces = [
        e.delta.text
        for e in raw
        if e.type == "content_block_delta" and e.delta.type == "text_delta"
    ]
    assert len(text_pieces) >= 2 and "".join(text_pieces) == "我來建立檔案。"
    assert final.stop_reason == "tool_use"
    assert final.content[1].type == "tool_use" and final.content[1].input == HELLO
    # The server sent a ping too (the SDK hides it from the event iterator).
    assert server.requests[0].events[:2] == ["message_start", "ping"]


def test_non_stream_returns_the_same_message(scripted_api: StartServer) -> None:
    server = scripted_api(script(reply("Sure.", tool_use("write_file", HELLO, id="toolu_abc"))))
    message = ask(client(server.base_url))
    assert [b.type for b in message.content] == ["text", "tool_use"]
    assert message.content[1].id == "toolu_abc"  # type: ignore[union-attr]
    assert message.stop_reason == "tool_use"
    assert message.usage.input_tokens > 0 and message.usage.output_tokens > 0


@pytest.mark.parametrize("stop", ["max_tokens", "model_context_window_exceeded", "end_turn"])
def test_stop_reason_is_what_the_script_says(scripted_api: StartServer, stop: str) -> None:
    server = scripted_api(script(reply("cut", stop_reason=stop)))
    assert ask(client(server.base_url)).stop_reason == stop


def test_usage_override_is_reported_verbatim(scripted_api: StartServer) -> None:
    server = scripted_api(script(reply("ok", usage={"input_tokens": 100, "output_tokens": 20})))
    usage = ask(client(server.base_url)).usage
    assert (usage.input_tokens, usage.output_tokens) == (100, 20)
    assert server.accounting[0].usage.input_tokens == 100


def test_event_names_lets_a_script_aim_at_the_first_tool_delta() -> None:
    step = reply("hi", tool_use("write_file", HELLO))
    names = event_names(step)
    assert names[:4] == ["message_start", "ping", "content_block_start", "text_delta"]
    assert names.count("input_json_delta") >= 4
    assert len(names) == len(plan_events(step))


def test_429_with_retry_after_is_retried_by_the_sdk_after_that_wait(
    scripted_api: StartServer,
) -> None:
    server = scripted_api(script(http_error(429, retry_after=1), reply("ok")))
    message = ask(client(server.base_url))
    assert message.content[0].type == "text"
    first, second = server.requests
    assert first.status == 429 and second.status == 200
    assert second.retry_count == 1
    assert 0.9 <= second.arrived - first.arrived < 3.0


@pytest.mark.parametrize(
    ("status", "error_class"),
    [
        (529, anthropic.OverloadedError),
        (500, anthropic.InternalServerError),
        (429, anthropic.RateLimitError),
    ],
)
def test_retryable_errors_exhaust_the_sdk_retries(
    scripted_api: StartServer, status: int, error_class: type[Exception]
) -> None:
    server = scripted_api(script(http_error(status, forever=True)))
    with pytest.raises(error_class):
        ask(client(server.base_url, max_retries=1))
    assert [r.status for r in server.requests] == [status, status]


def test_400_is_not_retried_unless_the_server_says_so(scripted_api: StartServer) -> None:
    server = scripted_api(script(http_error(400, message="prompt is too long", forever=True)))
    with pytest.raises(anthropic.BadRequestError, match="prompt is too long"):
        ask(client(server.base_url, max_retries=2))
    assert len(server.requests) == 1

    again = scripted_api(script(http_error(400, headers={"x-should-retry": "true"}, forever=True)))
    with pytest.raises(anthropic.BadRequestError):
        ask(client(again.base_url, max_retries=1))
    assert len(again.requests) == 2


def test_reset_mid_stream_breaks_the_connection_with_a_transport_error(
    scripted_api: StartServer,
) -> None:
    server = scripted_api(script(reset_after(4, "Hello there, a long enough text.")))
    with (
        pytest.raises(httpx2.TransportError),
        client(server.base_url, max_retries=0).messages.stream(
            model="claude-haiku-4-5",
            max_tokens=100,
            messages=[{"role": "user", "content": "hi"}],
        ) as stream,
    ):
        for _ in stream:
            pass
    assert server.requests[0].events == [
        "message_start",
        "ping",
        "content_block_start",
        "text_delta",
    ]
    assert server.accounting[0].delivered == "partial"


def test_error_event_mid_stream_raises_an_api_error_naming_its_type(
    scripted_api: StartServer,
) -> None:
    server = scripted_api(script(error_event_after(3, "Hello", error_type="overloaded_error")))
    with (
        pytest.raises(anthropic.APIStatusError) as caught,
        client(server.base_url).messages.stream(
            model="claude-haiku-4-5", max_tokens=100, messages=[{"role": "user", "content": "hi"}]
        ) as stream,
    ):
        for _ in stream:
            pass
    assert caught.value.type == "overloaded_error"
    assert server.requests[0].events[-1] == "error"
    assert len(server.requests) == 1  # a mid-stream error is never retried


def test_stall_can_be_observed_and_the_reply_then_carries_on(scripted_api: StartServer) -> None:
    server = scripted_api(script(stall_after(3, "slow but sure", seconds=0.3)))
    with client(server.base_url).messages.stream(
        model="claude-haiku-4-5", max_tokens=100, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        assert stream.get_final_text() == "slow but sure"
    assert server.requests[0].delivered == "full"


def test_stall_before_headers_times_out_the_client(scripted_api: StartServer) -> None:
    server = scripted_api(script(stall_after(0, "late", seconds=5, before_headers=True)))
    with pytest.raises(anthropic.APITimeoutError):
        ask(client(server.base_url, max_retries=0, timeout=0.5))
    assert server.wait_stalled(timeout=1).number == 1


def test_times_and_forever_repeat_a_step(scripted_api: StartServer) -> None:
    server = scripted_api(script(reply("a", times=2), reply("b", forever=True)))
    c = client(server.base_url)
    texts = [ask(c).content[0].text for _ in range(4)]  # type: ignore[union-attr]
    assert texts == ["a", "a", "b", "b"]
    assert server.remaining_steps == -1
