"""Benchmark 9: are the token figures the real API's? (issue 33)

The token benchmark judges KeSi's bill by the scripted API's counter, and Claude Haiku 4.5
caches no prefix under 4,096 tokens, so the counter must agree with the real API: whether
KeSi's fixed prefix is cached at all depends on it. This benchmark reports:

- the counter's largest error on the real counts the seed publishes for its own requests
  (`kesi_lsp/scripted_api/calibration.py`; target 15 %), every row in the details;
- KeSi's fixed prefix (its tools and rules, en and zh-TW) as the counter sees it, against the
  cache minimum;
- that caching starts as soon as the conversation passes the minimum where the prefix alone is
  under it: the Day 18 conversation against a model whose minimum is above KeSi's prefix (the
  first cached request is the first one past the minimum).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, cast

from bench import tokens
from bench.common import scratch
from bench.report import Figure, Report
from kesi_lsp.catalog import Locale
from kesi_lsp.core.prompt import rules_block
from kesi_lsp.core.tools import tool_schemas
from kesi_lsp.demo import project
from kesi_lsp.scripted_api.calibration import RARE_CHARACTERS, calibration_rows
from kesi_lsp.scripted_api.tokens import TOOL_USE_PROMPT, count_tokens, tool_tokens

NAME = "calibration"
BOUND = 0.15
HIGH_MINIMUM = 8_192
"""A cache minimum above KeSi's fixed prefix, so the prefix alone is never cached."""


LOCALES: Final[tuple[Locale, ...]] = ("en", "zh-TW")


def fixed_prefix(locale: Locale) -> int:
    """KeSi's tools and rules as the scripted API counts them (what every request repeats)."""
    schemas = [cast(Mapping[str, Any], schema) for schema in tool_schemas(locale)]
    return (
        TOOL_USE_PROMPT["auto"]
        + sum(tool_tokens(schema) for schema in schemas)
        + count_tokens(rules_block(locale))
    )


async def run(report: Report, *, smoke: bool) -> None:
    rows = calibration_rows()
    judged = [row for row in rows if row.what not in RARE_CHARACTERS]
    worst = max(judged, key=lambda row: abs(row.error))
    report.add(
        Figure(
            NAME,
            "counter's largest error on the seed's real counts",
            abs(worst.error) * 100,
            "%",
            BOUND * 100,
            baseline=f"{len(judged)} figures; worst {worst.what}: "
            f"{worst.counted:,} vs {worst.real:,}",
        )
    )
    report.details[NAME] = {
        "rows": [{"what": r.what, "real": r.real, "counted": r.counted} for r in rows],
        "prefix": {locale: fixed_prefix(locale) for locale in LOCALES},
    }
    for locale in LOCALES:
        prefix = fixed_prefix(locale)
        report.add(
            Figure(
                NAME,
                f"KeSi's fixed prefix ({locale}) / Haiku 4.5's cache minimum",
                prefix / tokens.MIN_CACHE_TOKENS,
                "x",
                baseline=f"{prefix:,} vs {tokens.MIN_CACHE_TOKENS:,} tokens",
            )
        )
    await _late_caching(report)


async def _late_caching(report: Report) -> None:
    """Day 18 against a minimum above the prefix: when does caching start?"""
    config = tokens.Config(
        "kesi", caching=True, trimming=True, compaction=True, min_cache=HIGH_MINIMUM
    )
    with scratch("calibration") as work:
        bill = await tokens.play(config, tokens.day18_scenario, project.build, work / "day 18")
    late = bill.first_cached - bill.first_past_minimum if bill.first_cached else float("nan")
    report.add(
        Figure(
            NAME,
            f"day 18, cache minimum {HIGH_MINIMUM:,}: first cached request - first past it",
            late,
            "requests",
            0,
            baseline=f"first past the minimum: request {bill.first_past_minimum}, first cached: "
            f"{bill.first_cached} of {bill.requests}; US${bill.usd:.4f}",
        )
    )
