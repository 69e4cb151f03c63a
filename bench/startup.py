"""Benchmark 4: how long until the editor gets its `initialize` answer, vs a bare pygls server.

An editor starts the server and sends `initialize` at once; the answer arrives once the
interpreter has started, imported the server and handled the request. The time from spawning
the process to that answer is measured for `kesi-lsp` and for a pygls server with no features
(`bench/minimal_server.py`), alternately, in the same run. Target: KeSi's median <= 1.5x.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from bench.common import REPO, kesi_argv, rss_mb, scratch, server_env
from bench.lsp_client import LspClient
from bench.report import Figure, Report
from bench.stats import median, ms

NAME = "startup"


@dataclass(frozen=True)
class Plan:
    trials: int


FULL = Plan(trials=15)
SMOKE = Plan(trials=6)


async def _one(argv: list[str], workspace: object) -> tuple[float, float]:
    """Spawn, `initialize`; return (seconds from spawn to the answer, RSS in MB after it)."""
    client = LspClient(argv, env=server_env(None))
    started = time.monotonic()
    await client.start()
    try:
        await client.initialize(workspace)  # type: ignore[arg-type]
        seconds = time.monotonic() - started
        rss, _ = rss_mb(client.pid)
    finally:
        await client.stop()
    return seconds, rss


async def run(report: Report, *, smoke: bool) -> None:
    plan = SMOKE if smoke else FULL
    minimal = [sys.executable, str(REPO / "bench" / "minimal_server.py")]
    kesi_times: list[float] = []
    base_times: list[float] = []
    kesi_rss: list[float] = []
    base_rss: list[float] = []
    with scratch("startup") as workspace:
        await _one(kesi_argv(), workspace)  # warm the file cache and the bytecode
        await _one(minimal, workspace)
        for _ in range(plan.trials):
            seconds, rss = await _one(kesi_argv(), workspace)
            kesi_times.append(ms(seconds))
            kesi_rss.append(rss)
            seconds, rss = await _one(minimal, workspace)
            base_times.append(ms(seconds))
            base_rss.append(rss)
    k, b = median(kesi_times), median(base_times)
    report.add(
        Figure(
            NAME,
            "spawn -> initialize answer, median / minimal pygls",
            k / b,
            "x",
            1.5,
            baseline=f"kesi-lsp {k:.0f} ms vs minimal pygls server {b:.0f} ms",
            note=f"{plan.trials} trials each, alternating",
        )
    )
    report.add(
        Figure(
            NAME,
            "idle server RSS after initialize",
            median(kesi_rss),
            "MB",
            None,
            baseline=f"minimal pygls server {median(base_rss):.0f} MB",
        )
    )
    report.details[NAME] = {
        "kesi_ms": kesi_times,
        "minimal_ms": base_times,
        "kesi_rss_mb": kesi_rss,
        "minimal_rss_mb": base_rss,
    }
