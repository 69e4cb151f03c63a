"""Compaction in the loop, over HTTP against the strict scripted API (kesi_lsp.core.compaction).

Trimming is off in most of these tests so that only compaction can bring the history back
within a small budget; each test checks what a user (or the model) would notice: the notice,
the summary request and its bill line, the history the next request carries, the read records,
and that a failed or cancelled summary leaves everything as it was.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from kesi_lsp.core.events import UsageReported
from kesi_lsp.core.history import check_history
from kesi_lsp.core.loop import compact_now
from kesi_lsp.scripted_api import http_error, reply, script, stall_after, tool_use
from tests.core.loop.conftest import Agent, MakeAgent

SUMMARY = (
    "## Task\nRead a.py, b.py and c.py.\n## Decisions\nNone.\n## Files changed\nNone.\n"
    "## What failed\nNothing.\n## Open\nAnswer the question.\n## Facts\na.py:1 defines A."
)
SMALL = {"context_trimming": False, "context_budget": 2_000}


def _files(agent: Agent, *names: str, lines: int = 120) -> None:
    for name in names:
        body = "".join(f"{name[0].upper()}_{i} = {i}  # a line of {name}\n" for i in range(lines))
        (agent.ctx.session.root / name).write_text(body, encoding="utf-8")


def _read(name: str) -> Any:
    return reply(f"Reading {name}.", tool_use("read_file", {"file_path": name}))


def _summary_requests(agent: Agent) -> list[dict[str, Any]]:
    return [r.body for r in agent.server.requests if "tool_choice" in r.body]


def _first_text(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else content[0]["text"]


async def test_the_older_turns_become_a_summary_and_the_latest_stay(make_agent: MakeAgent) -> None:
    steps = [_read("a.py"), _read("b.py"), _read("c.py"), reply(SUMMARY), reply("A, B and C.")]
    agent = make_agent(script(*steps), locale="en", **SMALL)
    _files(agent, "a.py", "b.py", "c.py")
    finished = await agent.ask("What do a.py, b.py and c.py define?")

    assert finished.status == "done" and finished.text == "A, B and C."
    requests = [r.body for r in agent.server.requests]
    assert len(requests) == 5
    before, summary, after = requests[2], requests[3], requests[4]
    # The summary request is the loop's own request for the summarised part, plus the ask.
    assert summary["tool_choice"] == {"type": "none"}
    assert summary["system"] == before["system"] and summary["tools"] == before["tools"]
    asked = summary["messages"][-1]["content"][-1]["text"]
    assert "## Task" in asked and "## Files changed" in asked and "Do not call tools" in asked
    assert summary["messages"][:-1] == _plain(before["messages"][:-1])
    # The next request: the summary first, then the latest turns exactly as they were.
    opening = _first_text(after["messages"][0])
    assert "summarised to save context" in opening and SUMMARY in opening
    kept = after["messages"][1:]
    assert kept[0]["role"] == "assistant" and kept[0]["content"][-1]["name"] == "read_file"
    assert kept[0]["content"][-1]["input"] == {"file_path": "c.py"}
    assert check_history(agent.history) == []
    # Told and billed: a notice, and the summary as its own line of the bill.
    notices = agent.notices("compaction")
    assert len(notices) == 2 and "Summarising" in notices[0] and "Summarised" in notices[1]
    lines = [e for e in agent.of(UsageReported) if e.purpose == "compaction"]
    assert len(lines) == 1 and lines[0].request.requests == 1
    assert finished.usage.requests == 5  # the run's bill includes the summary
    # The summary read the conversation from the prompt cache instead of paying for it again.
    assert agent.server.accounting[3].usage.cache_read_input_tokens > 0
    # Files whose reads went into the summary no longer count as read; c.py (kept) still does.
    root = agent.ctx.session.root
    assert set(agent.ctx.session.reads) == {(root / "c.py").resolve()}


def _plain(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Messages without cache_control (the breakpoint moves to the summary request's end)."""
    out = copy.deepcopy(messages)
    for message in out:
        if isinstance(message["content"], list):
            for block in message["content"]:
                block.pop("cache_control", None)
    return out


async def test_an_overwrite_after_compaction_asks_for_a_fresh_read(make_agent: MakeAgent) -> None:
    write = tool_use("write_file", {"file_path": "a.py", "content": "A = 1\n"})
    steps = [
        _read("a.py"),
        _read("b.py"),
        _read("c.py"),
        reply(SUMMARY),
        reply("Now I overwrite a.py.", write),
        reply("I must read it first.", expect={"last_tool_result_is_error": True}),
    ]
    agent = make_agent(script(*steps), locale="en", **SMALL)
    _files(agent, "a.py", "b.py", "c.py")
    await agent.ask("Rewrite a.py.")
    result = agent.history[-2]["content"][0]
    assert result["is_error"] and "read_file" in result["content"]
    assert (agent.ctx.session.root / "a.py").read_text().startswith("A_0 = 0")


async def test_a_failed_summary_leaves_the_history_as_it_was(make_agent: MakeAgent) -> None:
    steps = [_read("a.py"), _read("b.py"), _read("c.py"), http_error(500), reply("Done anyway.")]
    agent = make_agent(script(*steps), locale="en", max_retries=0, **SMALL)
    _files(agent, "a.py", "b.py", "c.py")
    finished = await agent.ask("What do they define?")
    assert finished.status == "done" and finished.text == "Done anyway."
    last = agent.server.requests[-1].body["messages"]
    assert _first_text(last[0]) == "What do they define?"  # no summary anywhere
    assert len(last) == 7
    assert any("Could not summarise" in n for n in agent.notices("compaction"))
    assert len(agent.ctx.session.reads) == 3
    agent.assert_history_sound()


async def test_a_cut_off_summary_is_not_used(make_agent: MakeAgent) -> None:
    cut = reply("## Task\nRead a.py, b.py and", stop_reason="max_tokens")
    steps = [_read("a.py"), _read("b.py"), _read("c.py"), cut, reply("Done anyway.")]
    agent = make_agent(script(*steps), locale="en", **SMALL)
    _files(agent, "a.py", "b.py", "c.py")
    await agent.ask("What do they define?")
    assert _first_text(agent.history[0]) == "What do they define?"
    assert any("not a complete summary" in n for n in agent.notices("compaction"))


async def test_cancelling_the_summary_keeps_the_history_and_the_next_request_is_valid(
    make_agent: MakeAgent,
) -> None:
    stalled = stall_after(3, SUMMARY, seconds=30)
    steps = [
        _read("a.py"),
        _read("b.py"),
        _read("c.py"),
        stalled,
        reply(SUMMARY),  # the next run finds the history still too big and summarises it
        reply("Back again."),
    ]
    agent = make_agent(script(*steps), locale="en", **SMALL)
    _files(agent, "a.py", "b.py", "c.py")
    task = asyncio.ensure_future(agent.ask("What do they define?"))
    await asyncio.to_thread(agent.server.wait_stalled, 10.0)
    before = copy.deepcopy(agent.history)
    task.cancel()
    finished = await task
    assert finished.status == "cancelled"
    assert agent.history[: len(before)] == before  # nothing summarised, nothing lost
    assert agent.history[-1]["role"] == "assistant"  # the interruption, as Ctrl-C writes it
    assert any("interrupted" in n for n in agent.notices("compaction"))
    again = await agent.ask("Are you there?")
    assert again.status == "done" and again.text == "Back again."
    agent.assert_history_sound()


async def test_prompt_too_long_is_compacted_and_sent_again(make_agent: MakeAgent) -> None:
    """The fallback: the API refuses the size; KeSi summarises and resends once."""
    steps = [_read("a.py"), _read("b.py"), _read("c.py"), reply(SUMMARY), reply("A, B and C.")]
    agent = make_agent(
        # a and b fit (10,552); with c it is too long. The API does not report the window (else
        # the summary would come first: test_context_window), so only its refusal triggers it.
        script(*steps, context_window=11_500, models="no_window"),
        locale="en",
        context_trimming=False,
        context_budget=1_000_000,  # never due by the budget: only the API's answer triggers it
    )
    _files(agent, "a.py", "b.py", "c.py")
    finished = await agent.ask("What do they define?")
    assert finished.status == "done" and finished.text == "A, B and C."
    statuses = [r.status for r in agent.server.requests]
    assert 400 in statuses and statuses[-1] == 200
    assert any("too long" in n for n in agent.notices("compaction"))
    assert "summarised" in _first_text(agent.history[0])
    agent.assert_history_sound()


async def test_without_compaction_prompt_too_long_ends_the_run(make_agent: MakeAgent) -> None:
    steps = [_read("a.py"), _read("b.py"), _read("c.py")]
    agent = make_agent(
        script(*steps, context_window=10_000),
        locale="en",
        context_trimming=False,
        compaction=False,
    )
    _files(agent, "a.py", "b.py", "c.py")
    finished = await agent.ask("What do they define?")
    assert finished.status == "failed" and "prompt is too long" in finished.text
    assert _summary_requests(agent) == []
    agent.assert_history_sound()


async def test_compact_now_summarises_on_demand(make_agent: MakeAgent) -> None:
    steps = [
        _read("a.py"),
        _read("b.py"),
        reply("a.py and b.py define A and B."),
        reply(SUMMARY),
        reply("Yes, A.", expect={"last_user_text_contains": "And a.py?"}),
    ]
    agent = make_agent(script(*steps), locale="en")
    _files(agent, "a.py", "b.py")
    await agent.ask("What do a.py and b.py define?")
    finished = await compact_now(agent.ctx, agent.model)
    assert finished.status == "done" and "summary" in finished.text
    assert finished.usage.requests == 1
    assert agent.roles[0] == "user" and SUMMARY in _first_text(agent.history[0])
    assert agent.ctx.session.reads == {}
    again = await agent.ask("And a.py?")
    assert again.text == "Yes, A."
    agent.assert_history_sound()


async def test_compact_now_on_a_short_conversation_does_nothing(make_agent: MakeAgent) -> None:
    agent = make_agent(script(reply("Hi.")), locale="en")
    await agent.ask("Hello")
    before = copy.deepcopy(agent.history)
    finished = await compact_now(agent.ctx, agent.model)
    assert finished.status == "done" and finished.usage.requests == 0
    assert agent.history == before
    assert any("Nothing to summarise" in n for n in agent.notices("compaction"))
