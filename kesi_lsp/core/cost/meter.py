"""The cost meter (Day 18): every request's token usage, priced, per run and per session.

The meter records what each API response's `usage` said, one record per *request* (a run with
three tool rounds is three requests). A request interrupted before `message_delta` only has the
numbers seen so far; it is recorded with `partial=True`, and the line that reports it says so,
because the real bill is whatever the server counted. The dollar figure is computed locally
from list prices, as Claude Code does; the Anthropic Console has the real bill.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from kesi_lsp.catalog import Locale, text


@dataclass(frozen=True)
class Price:
    """US dollars per million tokens. `cache_write` is the 5-minute write (1.25 x input)."""

    input: float
    output: float
    cache_write: float
    cache_read: float


# List prices (Day 18 quotes Haiku 4.5 and Opus 5 as of October 2026; Sonnet 4.x and the
# other Opus models are their published list prices; check the official pricing page).
# Looked up by exact name, then by longest prefix, so dated snapshots such as
# "claude-haiku-4-5-20251001" find their family. A model not listed is counted, not priced.
PRICES: Final[Mapping[str, Price]] = {
    "claude-haiku-4-5": Price(1.0, 5.0, 1.25, 0.10),
    "claude-3-5-haiku": Price(0.80, 4.0, 1.0, 0.08),
    "claude-sonnet-4": Price(3.0, 15.0, 3.75, 0.30),
    "claude-opus-4-5": Price(5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-6": Price(5.0, 25.0, 6.25, 0.50),
    "claude-opus-4-1": Price(15.0, 75.0, 18.75, 1.50),
    "claude-opus-4-0": Price(15.0, 75.0, 18.75, 1.50),
    "claude-opus-4-20250514": Price(15.0, 75.0, 18.75, 1.50),
    "claude-opus-5": Price(5.0, 25.0, 6.25, 0.50),
}


def price_for(model: str) -> Price | None:
    """The price of `model`, or None when it is not in the table."""
    if model in PRICES:
        return PRICES[model]
    matches = [name for name in PRICES if model.startswith(name)]
    return PRICES[max(matches, key=len)] if matches else None


@dataclass(frozen=True)
class Usage:
    """Token counts of one or more requests and what they cost.

    `partial` marks usage of a request that was interrupted before `message_delta` reported the
    final output count: the numbers are what was seen, not the bill. `partial_requests` counts
    such requests in a total; `unpriced_requests` counts requests whose model has no price
    (their tokens are counted, their cost is not).
    """

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    cost_usd: float = 0.0
    partial: bool = False
    partial_requests: int = 0
    unpriced_requests: int = 0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            requests=self.requests + other.requests,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,
            cost_usd=self.cost_usd + other.cost_usd,
            partial=self.partial or other.partial,
            partial_requests=self.partial_requests + other.partial_requests,
            unpriced_requests=self.unpriced_requests + other.unpriced_requests,
        )


def _tokens(usage: object, name: str) -> int:
    value = getattr(usage, name, None)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def cost_of(
    model: str, *, input_tokens: int, output_tokens: int, cache_write: int, cache_read: int
) -> float | None:
    """Dollars for these token counts at `model`'s list price (None: no known price)."""
    price = price_for(model)
    if price is None:
        return None
    return (
        input_tokens * price.input
        + output_tokens * price.output
        + cache_write * price.cache_write
        + cache_read * price.cache_read
    ) / 1_000_000


def record(usage: object | None, model: str, *, partial: bool = False) -> Usage:
    """One request's Usage from an API `usage` object (None: nothing was received -> zero).

    Seed: "沒有 usage 不記帳" — a request that failed before any usage arrived is not counted.
    """
    if usage is None:
        return Usage()
    counts = {
        "input_tokens": _tokens(usage, "input_tokens"),
        "output_tokens": _tokens(usage, "output_tokens"),
        "cache_write": _tokens(usage, "cache_creation_input_tokens"),
        "cache_read": _tokens(usage, "cache_read_input_tokens"),
    }
    cost = cost_of(model, **counts)
    return Usage(
        requests=1,
        input_tokens=counts["input_tokens"],
        output_tokens=counts["output_tokens"],
        cache_write_tokens=counts["cache_write"],
        cache_read_tokens=counts["cache_read"],
        cost_usd=cost or 0.0,
        partial=partial,
        partial_requests=1 if partial else 0,
        unpriced_requests=1 if cost is None else 0,
    )


def describe(run: Usage, session: Usage, locale: Locale) -> str:
    """The seed's one-line bill after a run (Day 18's `report`): requests, tokens, the cache
    figures when there are any, cost, how many requests were cut short, and the session total.

    Every front end prints this line as it is (log lines, `kesi/runFinished.bill`, the ACP
    adapter): with caching on, "input 6,639" alone would hide most of what was sent.
    """
    parts = text(
        "loop.usage.tokens",
        locale,
        input=f"{run.input_tokens:,}",
        output=f"{run.output_tokens:,}",
    )
    if run.cache_read_tokens or run.cache_write_tokens:
        parts += text(
            "loop.usage.cache",
            locale,
            read=f"{run.cache_read_tokens:,}",
            write=f"{run.cache_write_tokens:,}",
        )
    note = ""
    if run.partial_requests:
        note += text("loop.usage.partial", locale, count=run.partial_requests)
    if run.unpriced_requests:
        note += text("loop.usage.unpriced", locale, count=run.unpriced_requests)
    return text(
        "loop.usage.line",
        locale,
        requests=run.requests,
        parts=parts,
        cost=f"{run.cost_usd:.4f}",
        note=note,
        total=f"{session.cost_usd:.4f}",
    )


def cost_lines(session: Usage, locale: Locale) -> list[str]:
    """The seed's `/cost` (Day 18): the session's requests, tokens, cache (when used), total.

    The seed prints no partial or unpriced note here; the bill line of the run that had them
    did, but `/cost` is where a user looks later, so the same notes follow the total.
    """
    lines = [
        text("loop.cost.requests", locale, requests=session.requests),
        text(
            "loop.cost.tokens",
            locale,
            input=f"{session.input_tokens:,}",
            output=f"{session.output_tokens:,}",
        ),
    ]
    if session.cache_read_tokens or session.cache_write_tokens:
        lines.append(
            text(
                "loop.cost.cache",
                locale,
                read=f"{session.cache_read_tokens:,}",
                write=f"{session.cache_write_tokens:,}",
            )
        )
    lines.append(text("loop.cost.total", locale, total=f"{session.cost_usd:.4f}"))
    if session.partial_requests:
        lines.append(text("loop.cost.partial", locale, count=session.partial_requests))
    if session.unpriced_requests:
        lines.append(text("loop.cost.unpriced", locale, count=session.unpriced_requests))
    return lines
