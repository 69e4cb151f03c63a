"""Day 04's context window, asked from the API (「不用把數字寫死在程式裡，跟 API 問就有」): over
HTTP through the real SDK, against the scripted API's models endpoint.

What a user notices: a model with a smaller window is compacted (or trimmed) before the API
refuses the request, the question is asked once per model and session, and when the API does
not say, a notice tells them which number KeSi measures against instead.
"""

from __future__ import annotations

from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import Agent, MakeAgent

SUMMARY = (
    "## Task\nRead the files.\n## Decisions\nNone.\n## Files changed\nNone.\n"
    "## What failed\nNothing.\n## Open\nAnswer the question.\n## Facts\na.py:1 defines A."
)


def _files(agent: Agent, *names: str, lines: int = 120) -> None:
    for name in names:
        body = "".join(f"{name[0].upper()}_{i} = {i}  # a line of {name}\n" for i in range(lines))
        (agent.ctx.session.root / name).write_text(body, encoding="utf-8")


def _read(name: str) -> Any:
    return reply(f"Reading {name}.", tool_use("read_file", {"file_path": name}))


UNKNOWN = {
    "en": "The API did not say how large claude-haiku-4-5's context window is; KeSi measures "
    "the conversation against 200,000 tokens, the known window of Claude models.",
    "zh-TW": "API 沒有說 claude-haiku-4-5 的 context window 有多大，KeSi 先用 Claude 模型已知的 "
    "200,000 個 token 來衡量對話長度。",
}


async def test_compaction_measures_against_the_window_the_api_reports(
    make_agent: MakeAgent,
) -> None:
    """The API says 13,000 tokens: the summary comes before a request that large is sent, so
    the API never has to refuse one (with a hard-coded 200,000 it refused, then KeSi
    compacted)."""
    steps = [_read("a.py"), _read("b.py"), _read("c.py"), reply(SUMMARY), reply("A, B and C.")]
    agent = make_agent(
        script(*steps, context_window=13_000),
        locale="en",
        context_trimming=False,
        context_budget=1_000_000,  # never due by the budget: only the window can make it due
    )
    _files(agent, "a.py", "b.py", "c.py")
    finished = await agent.ask("What do they define?")
    assert finished.status == "done" and finished.text == "A, B and C."
    assert [r.status for r in agent.server.requests] == [200] * 5  # no 400 "prompt is too long"
    assert agent.notices("compaction") and not any(
        "too long" in n for n in agent.notices("compaction")
    )
    assert agent.server.model_lookups == ["claude-haiku-4-5"]
    assert agent.notices("info") == []  # the API said: nothing to tell


async def test_trimming_keeps_within_the_window_the_api_reports(make_agent: MakeAgent) -> None:
    """Without compaction, old reads are cleared to fit the reported window: ten reads fit in
    11,000 tokens, where a hard-coded 200,000 let the request grow until the API refused it."""
    names = [f"{letter}.py" for letter in "abcdefghij"]
    agent = make_agent(
        script(*[_read(name) for name in names], reply("All ten."), context_window=11_000),
        locale="en",
        compaction=False,
        context_budget=1_000_000,  # never due by the budget: only the window can make it due
    )
    _files(agent, *names, lines=30)
    finished = await agent.ask("What do they define?")
    assert finished.status == "done" and finished.text == "All ten.", finished.text
    assert all(r.status == 200 for r in agent.server.requests)
    assert any(n.startswith("Cleared ") for n in agent.notices("info"))


async def test_the_window_is_asked_once_per_model_and_session(make_agent: MakeAgent) -> None:
    agent = make_agent(script(reply("One."), reply("Two.")), locale="en")
    assert (await agent.ask("One?")).text == "One."
    agent.ctx.session.reset()  # a fresh conversation, the same model
    assert (await agent.ask("Two?")).text == "Two."
    assert agent.server.model_lookups == ["claude-haiku-4-5"]
    assert agent.ctx.session.windows == {"claude-haiku-4-5": 200_000}


@pytest.mark.parametrize("answer", ["missing", "no_window"])
@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_when_the_api_does_not_say_the_known_window_is_used_with_a_notice(
    make_agent: MakeAgent, answer: str, locale: str
) -> None:
    agent = make_agent(script(reply("One."), reply("Two."), models=answer), locale=locale)  # type: ignore[arg-type]
    assert (await agent.ask("One?")).text == "One."
    assert (await agent.ask("Two?")).text == "Two."
    assert agent.notices("info") == [UNKNOWN[locale]]  # once, not every run
    assert agent.server.model_lookups == ["claude-haiku-4-5"]
    assert agent.ctx.session.windows == {"claude-haiku-4-5": 200_000}
