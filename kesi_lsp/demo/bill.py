"""The demo's bill: the run's total and one line per model round-trip (seed Days 13 and 18).

The totals are KeSi's own (`kesi/runFinished` usage: what every API response reported, priced
by the meter); the rounds are what the editor saw stream by (`kesi/stream` usage events), with
the wall-clock seconds each round took and the tools it asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.demo.editor import Round
from kesi_lsp.demo.screen import Screen


def _int(usage: Mapping[str, Any], key: str) -> int:
    value = usage.get(key, 0)
    return value if isinstance(value, int) else 0


def _n(value: int) -> str:
    return f"{value:,}"


def total_line(usage: Mapping[str, Any], seconds: float, locale: Locale) -> str:
    cost = usage.get("costUsd", 0.0)
    return text(
        "demo.bill.total",
        locale,
        requests=_int(usage, "requests"),
        input=_n(_int(usage, "inputTokens")),
        read=_n(_int(usage, "cacheReadTokens")),
        write=_n(_int(usage, "cacheWriteTokens")),
        output=_n(_int(usage, "outputTokens")),
        cost=f"{cost if isinstance(cost, int | float) else 0.0:.4f}",
        seconds=f"{seconds:.1f}",
    )


def tool_list(tools: Sequence[str]) -> str:
    """`read_file ×3, edit_file`: the tools a round asked for, repeats counted."""
    counts: dict[str, int] = {}
    for name in tools:
        counts[name] = counts.get(name, 0) + 1
    shown = [name if n == 1 else f"{name} ×{n}" for name, n in counts.items()]
    return ", ".join(shown) or "-"


def round_rows(rounds: Sequence[Round]) -> list[list[str]]:
    rows = []
    for r in rounds:
        tools = tool_list(r.tools)
        rows.append(
            [
                r.label or str(r.number),
                _n(_int(r.usage, "inputTokens")),
                _n(_int(r.usage, "cacheReadTokens")),
                _n(_int(r.usage, "cacheWriteTokens")),
                _n(_int(r.usage, "outputTokens")),
                f"{r.seconds:.1f}",
                tools,
            ]
        )
    return rows


COLUMNS = ("round", "input", "cache_read", "cache_write", "output", "seconds", "tools")


def show_bill(
    screen: Screen,
    usage: Mapping[str, Any],
    rounds: Sequence[Round],
    seconds: float,
    note: str,
    locale: Locale,
) -> None:
    screen.info(total_line(usage, seconds, locale))
    screen.note(note)
    if rounds:
        header = [text(f"demo.bill.col.{c}", locale) for c in COLUMNS]
        screen.table(header, round_rows(rounds), indent="  ")
