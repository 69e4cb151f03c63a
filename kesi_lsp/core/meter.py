"""The cost meter (Day 18): every request's token usage, priced, per run and per session."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Usage:
    """Token counts of one or more requests and what they cost.

    `partial` marks usage of a request that was interrupted before `message_delta` reported the
    final output count: the numbers are what was seen, not the bill.
    """

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cache_write_tokens: int = 0
    cache_read_tokens: int = 0
    cost_usd: float = 0.0
    partial: bool = False
