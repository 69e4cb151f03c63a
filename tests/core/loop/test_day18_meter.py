"""Day 18's acceptance checks ("一輪對話要花多少錢": 9/9), plus the meter against the server.

The meter's totals must equal, token for token, the usage the scripted server sent.
"""

from __future__ import annotations

import math

from kesi_lsp.core.cost.meter import Usage, cost_lines, describe, price_for, record
from kesi_lsp.core.events import UsageReported
from kesi_lsp.core.history import check_history
from kesi_lsp.scripted_api import event_names, reply, reset_after, script, tool_use
from tests.core.loop.conftest import MakeAgent


class ApiUsage:
    """The shape of the SDK's usage object (only what the meter reads)."""

    def __init__(self, inp: int, out: int, cache_write: int = 0, cache_read: int = 0) -> None:
        self.input_tokens = inp
        self.output_tokens = out
        self.cache_creation_input_tokens = cache_write
        self.cache_read_input_tokens = cache_read


def test_no_usage_is_not_billed() -> None:
    """PASS 沒有 usage 不記帳"""
    assert record(None, "claude-haiku-4-5") == Usage()


def test_a_million_of_each_kind_adds_up_at_list_price() -> None:
    """PASS 四種 token 各一百萬，照價目表加起來"""
    total = (
        record(ApiUsage(1_000_000, 0), "claude-haiku-4-5")
        + record(ApiUsage(0, 1_000_000), "claude-haiku-4-5")
        + record(ApiUsage(0, 0, 1_000_000, 1_000_000), "claude-haiku-4-5")
    )
    assert math.isclose(total.cost_usd, 1.0 + 5.0 + 1.25 + 0.1)
    assert total.requests == 3


def test_run_totals_count_only_this_run() -> None:
    """PASS since 只算後面的請求 (a run's bill starts at zero; the session's keeps going)"""
    first = record(ApiUsage(1_000_000, 0), "claude-haiku-4-5")
    run = record(ApiUsage(0, 1_000_000), "claude-haiku-4-5") + record(
        ApiUsage(0, 0, 1_000_000, 1_000_000), "claude-haiku-4-5"
    )
    session = first + run
    assert run.input_tokens == 0 and math.isclose(run.cost_usd, 6.35)
    assert math.isclose(session.cost_usd, 7.35)


def test_the_bill_line_notes_a_partial_request() -> None:
    """PASS 帳單那一行有註明 / PASS 完整的帳不會被註明"""
    run = record(ApiUsage(100, 20), "claude-haiku-4-5") + record(
        ApiUsage(200, 5), "claude-haiku-4-5", partial=True
    )
    line = describe(run, run, "zh-TW")
    assert "其中 1 次只算到中斷前收到的部分" in line
    assert line.startswith("（本輪 2 次請求，input 300、output 25，$0.0004")
    assert "中斷" not in describe(Usage(), Usage(), "zh-TW")
    assert "partial" not in describe(Usage(), Usage(), "en")


def test_the_bill_line_is_the_seeds_word_for_word() -> None:
    """The audit's example (Day 18's `report`): cache figures and the partial note included."""
    run = Usage(
        requests=3,
        input_tokens=16_227,
        output_tokens=530,
        cache_read_tokens=1_000,
        cache_write_tokens=200,
        cost_usd=0.0189,
        partial_requests=1,
    )
    session = run + Usage(requests=1, cost_usd=0.01)
    assert describe(run, session, "zh-TW") == (
        "（本輪 3 次請求，input 16,227、output 530、快取讀 1,000、快取寫 200，$0.0189，"
        "其中 1 次只算到中斷前收到的部分；累計 $0.0289）"
    )
    assert describe(run, session, "en") == (
        "(this run: 3 request(s), input 16,227, output 530, cache read 1,000, cache write 200, "
        "$0.0189, 1 of them counted only up to the interruption; session total $0.0289)"
    )
    plain = Usage(requests=3, input_tokens=16_227, output_tokens=530, cost_usd=0.0189)
    assert describe(plain, plain, "zh-TW") == (
        "（本輪 3 次請求，input 16,227、output 530，$0.0189；累計 $0.0189）"
    )


def test_cost_lines_are_the_seeds_slash_cost() -> None:
    """Day 18's `/cost`: the cache line only when there is cache; the seed's mock numbers."""
    mock = Usage(requests=1, input_tokens=100, output_tokens=20, cost_usd=0.0002)
    assert cost_lines(mock, "zh-TW") == [
        "這個 session 共 1 次請求",
        "input 100、output 20",
        "合計 $0.0002",
    ]
    cached = Usage(
        requests=2,
        input_tokens=1_234,
        output_tokens=56,
        cache_read_tokens=17_003,
        cache_write_tokens=4_000,
        cost_usd=0.0123,
        partial_requests=1,
    )
    assert cost_lines(cached, "zh-TW") == [
        "這個 session 共 2 次請求",
        "input 1,234、output 56",
        "快取讀 17,003、快取寫 4,000",
        "合計 $0.0123",
        "（其中 1 次只算到中斷前收到的部分）",
    ]
    assert cost_lines(cached, "en") == [
        "This session: 2 request(s)",
        "input 1,234, output 56",
        "cache read 17,003, cache write 4,000",
        "Total $0.0123",
        "(1 of them counted only up to the interruption)",
    ]


def test_prices_per_model() -> None:
    assert price_for("claude-haiku-4-5-20251001") == price_for("claude-haiku-4-5")
    sonnet = price_for("claude-sonnet-4-5")
    assert sonnet is not None and (sonnet.input, sonnet.output) == (3.0, 15.0)
    opus = price_for("claude-opus-4-6")
    assert opus is not None and (opus.input, opus.output, opus.cache_read) == (5.0, 25.0, 0.5)
    assert price_for("some-future-model") is None
    unpriced = record(ApiUsage(10, 10), "some-future-model")
    assert unpriced.cost_usd == 0 and unpriced.unpriced_requests == 1
    assert "沒有已知價格" in describe(unpriced, unpriced, "zh-TW")


async def test_a_connection_reset_mid_stream_does_not_crash_kesi(make_agent: MakeAgent) -> None:
    """PASS 沒有往外丟錯誤 / 日記只留下完成的文字 / 最後一則告訴使用者斷線了 /
    斷線前收到的 usage 有記下來，標成 partial"""
    steps = ("我來讀一下", tool_use("read_file", {"file_path": "note.txt"}))
    cut = event_names(reset_after(0, *steps)).index("content_block_stop") + 2
    agent = make_agent(script(reset_after(cut, *steps), reply("好了。")))
    finished = await agent.ask("讀檔")  # no exception escapes
    assert finished.status == "failed"
    kept = agent.history[1]["content"]
    assert [b["type"] for b in kept] == ["text", "text"]
    assert kept[0]["text"] == "我來讀一下"
    assert kept[1]["text"] == finished.text and finished.text.startswith("錯誤：")
    assert "連線斷了" in finished.text and "Error" in finished.text  # e.g. ReadError
    reports = agent.of(UsageReported)
    assert len(reports) == 1 and reports[0].request.partial
    assert agent.ctx.session.usage.partial_requests == 1
    assert check_history(agent.history) == []
    assert (await agent.ask("再一次")).text == "好了。"


async def test_meter_totals_equal_what_the_server_sent(make_agent: MakeAgent) -> None:
    steps = script(
        reply("我先列目錄。", tool_use("list_files", {})),
        reply("再讀一個檔。", tool_use("read_file", {"file_path": "missing.txt"})),
        reply("這個專案是空的。"),
        reply("第二題的答案。"),
    )
    agent = make_agent(steps)
    first = await agent.ask("這個專案在做什麼？")
    second = await agent.ask("還有呢？")
    sent = agent.server.accounting
    assert [r.delivered for r in sent] == ["full"] * 4
    session = agent.ctx.session.usage
    assert session.requests == 4
    assert session.input_tokens == sum(r.usage.input_tokens for r in sent)
    assert session.output_tokens == sum(r.usage.output_tokens for r in sent)
    assert session.cache_write_tokens == sum(r.usage.cache_creation_input_tokens for r in sent)
    assert session.cache_read_tokens == sum(r.usage.cache_read_input_tokens for r in sent)
    price = price_for("claude-haiku-4-5")
    assert price is not None
    expected = sum(
        r.usage.input_tokens * price.input
        + r.usage.output_tokens * price.output
        + r.usage.cache_creation_input_tokens * price.cache_write
        + r.usage.cache_read_input_tokens * price.cache_read
        for r in sent
    )
    assert math.isclose(session.cost_usd, expected / 1e6)
    assert first.usage.requests == 3 and second.usage.requests == 1
    assert math.isclose(first.usage.cost_usd + second.usage.cost_usd, session.cost_usd)
    last = agent.of(UsageReported)[-1]
    assert last.session == session and last.run == second.usage
