"""Loop detection (Day 12's fingerprint of tool name + arguments), in the loop over HTTP.

Three identical calls in a row with the same result: the model is told, in the third result.
A fourth identical call is not run: the run stops with limit `repeating` and a message that
names the call. A call whose result changes, or a different call, is not a loop.
"""

from __future__ import annotations

from typing import Any

from kesi_lsp.core.events import ToolStarted
from kesi_lsp.core.repeats import RepeatWatch, fingerprint
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import MakeAgent

SAME = reply("Let me look at the folder again.", tool_use("list_files", {}), forever=True)


def _results(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        block
        for message in body["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]


async def test_the_same_call_with_the_same_answer_is_told_then_stopped(
    make_agent: MakeAgent,
) -> None:
    agent = make_agent(script(SAME), locale="en", max_retries=0)
    (agent.ctx.session.root / "a.py").write_text("x = 1\n", encoding="utf-8")
    finished = await agent.ask("What is in the folder?")

    assert finished.status == "limit" and finished.limit == "repeating"
    assert "list_files {}" in finished.text and "4 times in a row" in finished.text
    assert len(agent.server.requests) == 4  # three runs of the call, the fourth refused
    started = [e for e in agent.events if isinstance(e, ToolStarted)]
    assert len(started) == 4
    told = _results(agent.server.requests[3].body)
    assert [r["content"].startswith("a.py") for r in told] == [True, True, True]
    assert "[KeSi]" not in told[0]["content"] and "[KeSi]" not in told[1]["content"]
    assert "3 times in a row" in told[2]["content"]  # the model was told at the third
    refused = agent.history[-2]["content"][0]
    assert refused["is_error"] is True and "not run" in refused["content"]
    assert agent.history[-1] == {"role": "assistant", "content": finished.text}
    assert finished.text in agent.notices("limit")
    agent.assert_history_sound()


async def test_a_call_whose_answer_changes_is_progress_not_a_loop(make_agent: MakeAgent) -> None:
    """The same test run after each edit answers differently each time: never stopped."""
    run = [reply(tool_use("run_command", {"command": "date +%s%N"})) for _ in range(5)]
    agent = make_agent(script(*run, reply("Done.")), locale="en")
    finished = await agent.ask("Run it five times.")
    assert finished.status == "done" and finished.text == "Done."
    assert all("[KeSi]" not in r["content"] for r in _results(agent.server.requests[-1].body))


async def test_the_next_run_starts_a_new_count(make_agent: MakeAgent) -> None:
    """A stop is per run: asking again runs the call again, and the history stays valid."""
    same = [reply(tool_use("list_files", {})) for _ in range(4)]
    agent = make_agent(script(*same, reply(tool_use("list_files", {})), reply("One file.")))
    first = await agent.ask("列目錄")
    assert first.limit == "repeating"
    assert "連續 4 次呼叫 list_files {}" in first.text
    second = await agent.ask("再列一次")
    assert second.status == "done" and second.text == "One file."
    agent.assert_history_sound()


async def test_watch_counts_only_identical_call_and_answer() -> None:
    watch = RepeatWatch("en")
    answers = iter(["a", "a", "b", "b", "b"])

    async def call() -> ToolResult:
        return ToolResult(next(answers))

    outcomes = [await watch.run("grep", {"pattern": "x"}, call) for _ in range(5)]
    assert [o.text.split("\n")[0] for o in outcomes] == ["a", "a", "b", "b", "b"]
    assert "[KeSi]" in outcomes[4].text and "[KeSi]" not in outcomes[2].text
    assert watch.stopped is None
    assert fingerprint("grep", {"pattern": "x", "path": "."}) == fingerprint(
        "grep", {"path": ".", "pattern": "x"}
    )
    assert fingerprint("grep", {"pattern": "x"}) != fingerprint("glob", {"pattern": "x"})
