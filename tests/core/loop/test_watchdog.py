"""The stalled-stream watchdog: a stream that goes silent is closed, the run fails with a
message that says so, the history stays valid, and the next request works.

The scripted API's `stall` fault goes silent for 30 s; the setting is a fraction of a second
here, so each test ends long before the stall would.
"""

from __future__ import annotations

import time

import pytest

from kesi_lsp.scripted_api import (
    event_names,
    http_error,
    reply,
    script,
    stall_after,
    tool_use,
)
from tests.core.loop.conftest import MakeAgent

TEXT = "Let me read the file first."
READ = tool_use("read_file", {"file_path": "a.py"})
NEXT = reply("Ready again.", expect={"last_user_text_contains": "again"}, label="next")


async def test_a_stream_that_goes_silent_mid_reply_is_closed(make_agent: MakeAgent) -> None:
    names = event_names(reply(TEXT, READ))
    after_text = names.index("content_block_stop") + 1  # the text block is whole, then silence
    agent = make_agent(
        script(stall_after(after_text, TEXT, READ, seconds=30), NEXT),
        locale="en",
        stream_idle_timeout=0.5,
    )
    started = time.monotonic()
    finished = await agent.ask("What does a.py do?")
    assert time.monotonic() - started < 10
    assert finished.status == "failed"
    assert "stalled" in finished.text and "0.5 s" in finished.text
    assert finished.text in agent.notices("error")
    # The finished text is kept, the half tool call is not, and the error is written down.
    last = agent.history[-1]
    assert last["role"] == "assistant"
    assert [b["text"] for b in last["content"]] == [TEXT, finished.text]
    agent.assert_history_sound()
    again = await agent.ask("Try again.")
    assert again.status == "done" and again.text == "Ready again."


async def test_silence_before_the_headers_fails_with_the_history_as_it_was(
    make_agent: MakeAgent,
) -> None:
    agent = make_agent(
        script(stall_after(0, TEXT, seconds=30, before_headers=True), NEXT),
        stream_idle_timeout=0.5,
    )
    finished = await agent.ask("這個檔案在做什麼？")
    assert finished.status == "failed"
    assert "連線卡住了" in finished.text and "0.5 秒" in finished.text
    assert agent.roles == ["user"]  # Day 12: nothing arrived, the question stays
    again = await agent.ask("Ask again.")
    assert again.status == "done"
    agent.assert_history_sound()


@pytest.mark.slow  # a real 2.5 s stream against a real timer
async def test_a_slow_but_living_stream_is_not_a_stall(make_agent: MakeAgent) -> None:
    """Every event re-arms the timer: a stream that takes longer than the watchdog in all, but
    is never silent for long, is not a stall (gaps of 0.25 s against 1.5 s: room for a loaded
    machine)."""
    slow = reply("Slowly, " * 10, timing={"event_delay": 0.25, "text_chunk": 8})
    agent = make_agent(script(slow), locale="en", stream_idle_timeout=1.5)
    started = time.monotonic()
    finished = await agent.ask("Take your time.")
    assert finished.status == "done" and finished.text.startswith("Slowly")
    assert time.monotonic() - started > 1.5  # longer than the watchdog: it was re-armed


async def test_a_retry_wait_is_not_a_stall(make_agent: MakeAgent) -> None:
    """The SDK waits 1 s before retrying a 429 (retry-after); the watchdog allows for it."""
    agent = make_agent(
        script(http_error(429, retry_after=1), reply("After the wait.")),
        locale="en",
        stream_idle_timeout=0.5,
    )
    finished = await agent.ask("Hello")
    assert finished.status == "done" and finished.text == "After the wait."
    assert len(agent.notices("retry")) == 1
