"""The search sub-agent in the loop, over HTTP: a fresh read-only loop whose conclusion is all
the main conversation gets, whose lines arrive nested, whose requests are billed, and which a
cancel stops."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from kesi_lsp.core.events import Nested, TextDelta, ToolStarted, UsageReported
from kesi_lsp.scripted_api import event_names, http_error, reply, script, stall_after, tool_use
from tests.core.loop.conftest import Agent, MakeAgent

TASK = "Where is LIMIT set, and to what?"
ASK = reply("I'll have it searched.", tool_use("search_agent", {"task": TASK}, id="toolu_s"))
CONCLUSION = "LIMIT is 42, set at config.py:1."


def _project(agent: Agent) -> None:
    root = agent.ctx.session.root
    (root / "config.py").write_text("LIMIT = 42\n" + "# padding line\n" * 200, encoding="utf-8")
    (root / "app.py").write_text("from config import LIMIT\n", encoding="utf-8")


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait for something the agent reports (never a fixed sleep)."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "it never happened"
        await asyncio.sleep(0.01)


def _main_text(agent: Agent) -> str:
    return str(agent.server.requests[-1].body["messages"])


async def test_a_search_brings_back_only_its_conclusion(make_agent: MakeAgent) -> None:
    steps = [
        ASK,
        reply("Searching.", tool_use("grep", {"pattern": "LIMIT ="})),
        reply(tool_use("read_file", {"file_path": "config.py"})),
        reply(CONCLUSION),
        reply("LIMIT is 42.", expect={"last_tool_result_contains": "config.py:1"}),
    ]
    agent = make_agent(script(*steps), locale="en")
    _project(agent)
    finished = await agent.ask("What is LIMIT?")
    assert finished.status == "done" and finished.text == "LIMIT is 42."

    sub = [r.body for r in agent.server.requests[1:4]]
    for body in sub:  # a fresh loop: its own prompt and only the four read-only tools
        assert [t["name"] for t in body["tools"]] == ["read_file", "list_files", "glob", "grep"]
        assert "search agent" in body["system"][0]["text"]
    first = sub[0]["messages"]
    assert len(first) == 1 and first[0]["content"][0]["text"] == TASK  # nothing of ours
    # The main conversation holds the call and the conclusion, never the file's contents.
    result = agent.history[2]["content"][0]
    assert result["tool_use_id"] == "toolu_s" and not result["is_error"]
    assert result["content"].startswith(CONCLUSION) and "do not count as read" in result["content"]
    assert "# padding line" not in _main_text(agent)
    assert agent.ctx.session.reads == {}  # its read is not the main agent's read
    # Its lines arrive nested under the call, and every request is on the bill.
    nested = agent.of(Nested)
    assert nested and {n.parent for n in nested} == {"toolu_s"}
    assert [n.event.name for n in nested if isinstance(n.event, ToolStarted)] == [
        "grep",
        "read_file",
    ]
    assert "".join(n.event.text for n in nested if isinstance(n.event, TextDelta)).startswith(
        "Searching."
    )
    bills = [n.event for n in nested if isinstance(n.event, UsageReported)]
    assert [b.purpose for b in bills] == ["search"] * 3
    assert bills[-1].subtotal is not None and bills[-1].subtotal.requests == 3
    assert finished.usage.requests == 5
    agent.assert_history_sound()


async def test_the_search_agent_cannot_write_or_run_commands(make_agent: MakeAgent) -> None:
    write = tool_use("write_file", {"file_path": "app.py", "content": "oops\n"})
    run = tool_use("run_command", {"command": "touch pwned"})
    steps = [
        ASK,
        reply(write, run),
        reply("I could not change anything.", expect={"last_tool_result_is_error": True}),
        reply("Nothing found."),
    ]
    agent = make_agent(script(*steps), locale="en")
    _project(agent)
    await agent.ask("What is LIMIT?")
    root = agent.ctx.session.root
    assert (root / "app.py").read_text() == "from config import LIMIT\n"
    assert not (root / "pwned").exists()
    results = agent.server.requests[2].body["messages"][-1]["content"]
    assert all(r["is_error"] and "only use read_file" in r["content"] for r in results)
    assert agent.approver.asked == []


async def test_at_its_turn_limit_it_must_conclude(make_agent: MakeAgent) -> None:
    steps = [
        ASK,
        reply(tool_use("grep", {"pattern": "LIMIT"})),
        reply(CONCLUSION, expect={"last_user_text_contains": "last round"}),
        reply("LIMIT is 42."),
    ]
    agent = make_agent(script(*steps), locale="en", search_max_turns=2)
    _project(agent)
    finished = await agent.ask("What is LIMIT?")
    assert finished.text == "LIMIT is 42."
    assert agent.server.requests[2].body["tool_choice"] == {"type": "none"}


async def test_a_failed_search_is_an_error_result_and_the_run_goes_on(
    make_agent: MakeAgent,
) -> None:
    steps = [ASK, http_error(500), reply("The search failed; let me grep myself.")]
    agent = make_agent(script(*steps), locale="en", max_retries=0)
    finished = await agent.ask("What is LIMIT?")
    assert finished.status == "done"
    result = agent.history[2]["content"][0]
    assert result["is_error"] and result["content"].startswith("Error: the search agent could")


async def test_cancelling_during_a_search_stops_it_and_the_next_request_is_valid(
    make_agent: MakeAgent,
) -> None:
    steps: list[Any] = [
        ASK,
        reply(tool_use("grep", {"pattern": "LIMIT"})),
        stall_after(event_names(reply("Still looking")).index("text_delta") + 1, "Still looking"),
        reply("Back.", expect={"last_user_text_contains": "again"}),
    ]
    agent = make_agent(script(*steps), locale="en")
    _project(agent)
    task = asyncio.ensure_future(agent.ask("What is LIMIT?"))
    await _until(lambda: any(isinstance(n.event, TextDelta) for n in agent.of(Nested)))
    task.cancel()
    finished = await task
    assert finished.status == "cancelled"
    result = agent.history[2]["content"][0]
    assert result["tool_use_id"] == "toolu_s" and result["is_error"]
    assert "interrupted" in result["content"]
    billed = [n.event for n in agent.of(Nested) if isinstance(n.event, UsageReported)]
    assert billed and billed[-1].request.partial  # the stalled request, counted as far as it got
    assert finished.usage.requests == 3
    again = await agent.ask("Try again.")
    assert again.status == "done" and again.text == "Back."
    agent.assert_history_sound()
