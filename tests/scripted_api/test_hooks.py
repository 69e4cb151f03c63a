"""The server's public hooks: `choose_step` picks each reply, `on_event_sent` hears each event."""

from __future__ import annotations

import time

import anthropic
import httpx2
import pytest

from kesi_lsp.scripted_api import (
    RecordedRequest,
    SentEvent,
    Step,
    reply,
    reset_after,
    script,
    tool_use,
)
from tests.plugins.scripted_api import StartServer

MODEL = "claude-haiku-4-5"


def client(base_url: str) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key="sk-ant-test", base_url=base_url, max_retries=0)


def ask(base_url: str, words: str) -> str:
    message = client(base_url).messages.create(
        model=MODEL, max_tokens=50, messages=[{"role": "user", "content": words}]
    )
    block = message.content[0]
    assert block.type == "text"
    return block.text


def echo(request: RecordedRequest) -> Step | None:
    """A chooser that answers from the request: the last user words, upper-cased."""
    words = str(request.messages[-1]["content"])
    return None if words == "nothing" else reply(words.upper(), label=f"echo {words}")


def test_choose_step_answers_each_request_from_what_it_asked(scripted_api: StartServer) -> None:
    server = scripted_api(script(), choose_step=echo)
    assert ask(server.base_url, "hello") == "HELLO"
    assert ask(server.base_url, "again") == "AGAIN"
    assert [r.label for r in server.requests] == ["echo hello", "echo again"]
    assert [r.step_index for r in server.requests] == [None, None]
    assert server.remaining_steps == -1


def test_a_chooser_with_no_reply_is_a_clear_recorded_error(scripted_api: StartServer) -> None:
    server = scripted_api(script(), choose_step=echo)
    server.allow_problems()
    with pytest.raises(anthropic.BadRequestError, match="the step chooser has no reply"):
        ask(server.base_url, "nothing")
    assert server.problems == [
        "request #1: scripted API: the step chooser has no reply for request #1"
    ]


def test_a_chosen_step_still_checks_its_expectations(scripted_api: StartServer) -> None:
    def strict(request: RecordedRequest) -> Step:
        return reply("ok", expect={"last_user_text_contains": "please"})

    server = scripted_api(script(), choose_step=strict)
    server.allow_problems()
    with pytest.raises(anthropic.BadRequestError, match="the chosen step"):
        ask(server.base_url, "now")
    assert len(server.problems) == 1
    assert "the chosen step: expected the last user text to contain 'please'" in server.problems[0]


def test_an_invalid_request_never_reaches_the_chooser(scripted_api: StartServer) -> None:
    seen: list[int] = []

    def counting(request: RecordedRequest) -> Step:
        seen.append(request.number)
        return reply("fine")

    server = scripted_api(script(), choose_step=counting)
    server.allow_problems()
    with pytest.raises(anthropic.BadRequestError, match="roles must alternate"):
        client(server.base_url).messages.create(
            model=MODEL,
            max_tokens=10,
            messages=[{"role": "user", "content": "a"}, {"role": "user", "content": "b"}],
        )
    assert ask(server.base_url, "a") == "fine"
    assert seen == [2]


def test_every_streamed_event_is_reported_in_order_after_it_left(
    scripted_api: StartServer,
) -> None:
    sent: list[SentEvent] = []
    step = reply("Hello there, streaming world.", tool_use("read_file", {"file_path": "a.py"}))
    server = scripted_api(script(step), on_event_sent=sent.append)
    before = time.monotonic()
    with client(server.base_url).messages.stream(
        model=MODEL, max_tokens=50, messages=[{"role": "user", "content": "hi"}]
    ) as stream:
        text = stream.get_final_text()
    assert server.wait_for(lambda s: s.requests[0].done)  # the last hook call has returned
    after = time.monotonic()
    record = server.requests[0]
    assert [e.name for e in sent] == record.events
    assert record.events[0] == "message_start" and record.events[-1] == "message_stop"
    assert all(e.request is record for e in sent)
    stamps = [e.sent_at for e in sent]
    assert stamps == sorted(stamps) and before <= stamps[0] and stamps[-1] <= after
    deltas = [e.data["delta"]["text"] for e in sent if e.name == "text_delta"]
    assert "".join(deltas) == text == "Hello there, streaming world."


def test_an_event_cut_off_by_a_reset_is_not_reported(scripted_api: StartServer) -> None:
    sent: list[SentEvent] = []
    server = scripted_api(script(reset_after(4, "Hello there.")), on_event_sent=sent.append)
    with (
        pytest.raises(httpx2.TransportError),
        client(server.base_url).messages.stream(
            model=MODEL, max_tokens=50, messages=[{"role": "user", "content": "hi"}]
        ) as stream,
    ):
        for _ in stream:
            pass
    names = ["message_start", "ping", "content_block_start", "text_delta"]
    assert [e.name for e in sent] == names == server.requests[0].events
