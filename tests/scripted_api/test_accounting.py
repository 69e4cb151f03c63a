"""Token counts are deterministic, and a repeated cache_control prefix is read from the cache."""

from __future__ import annotations

from typing import Any

import anthropic

from kesi_lsp.scripted_api import REQUEST_OVERHEAD, count_tokens, reply, script
from kesi_lsp.scripted_api.cache import PromptCache
from kesi_lsp.scripted_api.calibration import RARE_CHARACTERS, calibration_rows
from kesi_lsp.scripted_api.tokens import MESSAGE_OVERHEAD, TOOL_USE_PROMPT, input_size
from tests.plugins.scripted_api import StartServer

RULES = "You are KeSi. " * 40


def test_count_tokens_follows_the_documented_rule() -> None:
    # Hello , how are you today ?  (a single space joins the next word)
    assert count_tokens("Hello, how are you today?") == 7
    # 9 ideographs at 1.25, 2 full-width marks at 1: 13.25
    assert count_tokens("你好，你今天過得如何？") == 13
    assert count_tokens("internationalization") == 4  # 20 letters: 1 a started 6
    assert count_tokens("") == 0


def test_every_real_figure_the_seed_measured_is_matched_within_15_percent() -> None:
    """Issue 33: the counter is held to the real API (Haiku 4.5) on the seed's own requests."""
    rows = calibration_rows()
    assert len(rows) >= 19
    for row in rows:
        bound = 0.25 if row.what in RARE_CHARACTERS else 0.15
        assert abs(row.error) <= bound, (row.what, row.real, row.counted)


def test_tools_cost_the_tool_use_prompt_once() -> None:
    tool = {"name": "t", "description": "d", "input_schema": {"type": "object"}}
    bare = {"messages": [{"role": "user", "content": "x"}]}
    one = input_size({**bare, "tools": [tool]}) - input_size(bare)
    two = input_size({**bare, "tools": [tool, {**tool, "name": "u"}]}) - input_size(bare)
    assert one > TOOL_USE_PROMPT["auto"] and two - one == one - TOOL_USE_PROMPT["auto"]
    forced = input_size({**bare, "tools": [tool], "tool_choice": {"type": "any"}})
    assert forced - input_size({**bare, "tools": [tool]}) == 588 - 496


def request(*user_texts: str, cached: bool = True) -> dict[str, Any]:
    system: list[dict[str, Any]] = [{"type": "text", "text": RULES}]
    if cached:
        system[0]["cache_control"] = {"type": "ephemeral"}
    messages: list[dict[str, Any]] = []
    for i, text in enumerate(user_texts):
        if i:
            messages.append({"role": "assistant", "content": "ok"})
        messages.append({"role": "user", "content": [{"type": "text", "text": text}]})
    return {"model": "m", "max_tokens": 10, "system": system, "messages": messages}


def test_input_tokens_are_the_overhead_plus_every_unit() -> None:
    counted = PromptCache().account(request("hi", "again", cached=False))
    turns = 2 * MESSAGE_OVERHEAD  # the assistant's "ok" and the second question
    expected = (
        REQUEST_OVERHEAD
        + count_tokens(RULES)
        + count_tokens("hi")
        + count_tokens("ok")
        + count_tokens("again")
        + turns
    )
    assert counted.input_tokens == expected
    assert counted.cache_read_input_tokens == counted.cache_creation_input_tokens == 0


def test_second_request_reads_the_prefix_the_first_one_wrote() -> None:
    cache = PromptCache()
    first = cache.account(request("hi"))
    second = cache.account(request("hi", "and again"))
    rules = count_tokens(RULES)
    assert first.cache_creation_input_tokens == rules and first.cache_read_input_tokens == 0
    assert second.cache_read_input_tokens == rules and second.cache_creation_input_tokens == 0
    assert second.total > first.total


def test_a_changed_prefix_misses() -> None:
    cache = PromptCache()
    cache.account(request("hi"))
    changed = request("hi")
    changed["system"][0]["text"] = RULES + "!"
    assert cache.account(changed).cache_read_input_tokens == 0


def test_entries_expire_after_five_minutes() -> None:
    now = [0.0]
    cache = PromptCache(clock=lambda: now[0])
    cache.account(request("hi"))
    now[0] = 299.0
    assert cache.account(request("hi")).cache_read_input_tokens > 0
    now[0] = 299.0 + 301.0
    assert cache.account(request("hi")).cache_read_input_tokens == 0


def test_min_cache_tokens_keeps_small_prefixes_uncached() -> None:
    cache = PromptCache(min_cache_tokens=100_000)
    cache.account(request("hi"))
    second = cache.account(request("hi"))
    assert second.cache_read_input_tokens == second.cache_creation_input_tokens == 0


def test_moving_breakpoint_on_the_conversation_reads_the_earlier_prefix() -> None:
    """The conversation breakpoint moves to the newest message; the lookback still hits."""
    cache = PromptCache()
    first = request("first question")
    first["messages"][-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    one = cache.account(first)
    second = request("first question", "second question")
    second["messages"][-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    two = cache.account(second)
    assert (
        two.cache_read_input_tokens == one.cache_creation_input_tokens + one.cache_read_input_tokens
    )
    assert two.cache_creation_input_tokens > 0


def test_server_reports_the_accounting_it_sent(scripted_api: StartServer) -> None:
    server = scripted_api(script(reply("one"), reply("two")))
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.base_url)
    system: Any = [{"type": "text", "text": RULES, "cache_control": {"type": "ephemeral"}}]
    replies = [
        client.messages.create(
            model="m", max_tokens=10, system=system, messages=[{"role": "user", "content": q}]
        )
        for q in ("a", "b")
    ]
    records = server.accounting
    assert [r.delivered for r in records] == ["full", "full"]
    for message, record in zip(replies, records, strict=True):
        assert message.usage.input_tokens == record.usage.input_tokens
        assert message.usage.cache_read_input_tokens == record.usage.cache_read_input_tokens
    assert records[0].usage.cache_creation_input_tokens > 0
    assert records[1].usage.cache_read_input_tokens == records[0].usage.cache_creation_input_tokens


def test_a_request_past_the_context_window_is_refused_as_the_real_api_does(
    scripted_api: StartServer,
) -> None:
    """`context_window`: a 400 naming both sizes, no step used, and no problem recorded (the
    client asked for something legal; the model simply cannot take it)."""
    server = scripted_api(script(reply("Short enough."), context_window=400))
    client = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.base_url, max_retries=0)
    big = request("word " * 500, cached=False)
    try:
        client.messages.create(**big)
        raise AssertionError("the long prompt was accepted")
    except anthropic.BadRequestError as exc:
        assert "prompt is too long:" in exc.message and "> 400 maximum" in exc.message
    answer = client.messages.create(**request("hi", cached=False))
    assert answer.content[0].type == "text" and answer.content[0].text == "Short enough."
    assert server.problems == []
