"""Benchmark 1: what KeSi adds to the model's stream, per delta and at the end of a run.

The scripted API streams text at a controlled pace (`event_delay`), in 8-character deltas that
each carry a unique tag, and stamps every event as it leaves. Two clients consume the same
script in the same run, round by round, interleaved:

- the **baseline**: the raw `anthropic` SDK (`messages.stream`), in this process;
- **KeSi**: `kesi-lsp` running the agent, whose `kesi/stream` notifications reach our LSP client.

Latency per delta = arrival stamp - write stamp (CLOCK_MONOTONIC on both sides). The end of a
run is measured from the server writing `message_stop` to the SDK's `get_final_message()`
returning (baseline) or the client receiving `kesi/runFinished` (KeSi). KeSi's added latency is
its percentile minus the baseline's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anthropic

from bench.api_server import ApiProcess
from bench.common import FAKE_KEY, Runs, kesi_argv, scratch, server_env
from bench.lsp_client import LspClient
from bench.report import Figure, Report
from bench.stats import ms, percentile
from kesi_lsp.scripted_api import Script, Step, TextBlock, Timing

NAME = "streaming"


@dataclass(frozen=True)
class Plan:
    rounds: int  # measured rounds (one warm-up round comes first)
    deltas: int  # text deltas per round
    event_delay: float  # seconds between SSE events


FULL = Plan(rounds=30, deltas=300, event_delay=0.004)
SMOKE = Plan(rounds=8, deltas=120, event_delay=0.004)


def _tag(round_no: int, index: int) -> str:
    return f"{round_no:02d}{index:05d} "  # exactly 8 characters: one delta


def build_script(plan: Plan) -> Script:
    timing = Timing(event_delay=plan.event_delay, text_chunk=8)
    steps = [
        Step(
            content=(TextBlock("".join(_tag(r, i) for i in range(plan.deltas))),),
            timing=timing,
            label=f"round {r}",
        )
        for r in range(plan.rounds + 1)
    ]
    return Script(steps=tuple(steps))


def _sent(summary: dict[str, Any]) -> tuple[dict[str, float], list[float]]:
    """Write stamps of each text delta (by text) and of each `message_stop`, in order."""
    deltas: dict[str, float] = {}
    stops: list[float] = []
    for stamp, _request, name, text in summary["events"]:
        if name == "text_delta":
            deltas[text] = stamp
        elif name == "message_stop":
            stops.append(stamp)
    return deltas, stops


async def _sdk_round(client: anthropic.AsyncAnthropic) -> tuple[list[tuple[float, str]], float]:
    import time

    texts: list[tuple[float, str]] = []
    async with client.messages.stream(
        model="claude-haiku-4-5",
        max_tokens=4096,
        messages=[{"role": "user", "content": "go"}],
    ) as stream:
        async for event in stream:
            if event.type == "content_block_delta" and event.delta.type == "text_delta":
                texts.append((time.monotonic(), event.delta.text))
        await stream.get_final_message()
    return texts, time.monotonic()


def _latencies(texts: list[tuple[float, str]], sent: dict[str, float]) -> list[float]:
    return [ms(stamp - sent[text]) for stamp, text in texts if text in sent]


async def run(report: Report, *, smoke: bool) -> None:
    plan = SMOKE if smoke else FULL
    script = build_script(plan)
    with scratch("stream") as work:
        workspace = work / "project"
        workspace.mkdir()
        (workspace / "README.md").write_text("# bench\n", encoding="utf-8")
        sdk_api = await ApiProcess.start(script, work / "api-sdk")
        lsp_api = await ApiProcess.start(script, work / "api-lsp")
        sdk = anthropic.AsyncAnthropic(api_key=FAKE_KEY, base_url=sdk_api.base_url, max_retries=0)
        client = LspClient(kesi_argv(), env=server_env(lsp_api.base_url), cwd=workspace)
        runs = Runs(client)
        sdk_rounds: list[tuple[list[tuple[float, str]], float]] = []
        lsp_rounds: list[tuple[list[tuple[float, str]], float]] = []
        try:
            await client.start()
            await client.initialize(workspace)
            for _ in range(plan.rounds + 1):  # interleaved, so both see the same noise
                sdk_rounds.append(await _sdk_round(sdk))
                log = await runs.ask(client, "go")
                assert log.finished is not None
                lsp_rounds.append((log.texts, log.finished[0]))
                await client.command("kesi.reset", {})
        finally:
            await client.stop()
            await sdk.close()
            sdk_summary = await sdk_api.finish()
            lsp_summary = await lsp_api.finish()
    _figures(report, plan, sdk_rounds, lsp_rounds, sdk_summary, lsp_summary)


def _figures(
    report: Report,
    plan: Plan,
    sdk_rounds: list[tuple[list[tuple[float, str]], float]],
    lsp_rounds: list[tuple[list[tuple[float, str]], float]],
    sdk_summary: dict[str, Any],
    lsp_summary: dict[str, Any],
) -> None:
    problems = sdk_summary["problems"] + lsp_summary["problems"]
    if problems:
        raise RuntimeError(f"the scripted API saw problems: {problems[:3]}")
    sdk_sent, sdk_stops = _sent(sdk_summary)
    lsp_sent, lsp_stops = _sent(lsp_summary)
    # Round 0 warms up both sides (imports, connections) and is not counted.
    sdk_delta = [x for texts, _ in sdk_rounds[1:] for x in _latencies(texts, sdk_sent)]
    lsp_delta = [x for texts, _ in lsp_rounds[1:] for x in _latencies(texts, lsp_sent)]
    expected = plan.rounds * plan.deltas
    if len(sdk_delta) != expected or len(lsp_delta) != expected:
        raise RuntimeError(
            f"matched {len(sdk_delta)} SDK and {len(lsp_delta)} KeSi deltas, expected {expected}"
        )
    sdk_end = [ms(end - stop) for (_, end), stop in zip(sdk_rounds[1:], sdk_stops[1:], strict=True)]
    lsp_end = [ms(end - stop) for (_, end), stop in zip(lsp_rounds[1:], lsp_stops[1:], strict=True)]
    for label, kesi, base, limit50, limit99 in (
        ("text_delta -> kesi/stream", lsp_delta, sdk_delta, 5.0, 20.0),
        ("final event -> kesi/runFinished", lsp_end, sdk_end, 5.0, 20.0),
    ):
        for q, limit in ((50, limit50), (99, limit99)):
            k, b = percentile(kesi, q), percentile(base, q)
            report.add(
                Figure(
                    NAME,
                    f"{label}: added p{q}",
                    k - b,
                    "ms",
                    limit,
                    baseline=f"KeSi p{q} {k:.2f} ms vs raw SDK p{q} {b:.2f} ms",
                    note=f"{len(kesi)} samples",
                    ci=q == 50,  # a p99 of milliseconds is at the mercy of the machine's load
                )
            )
    report.details[NAME] = {
        "plan": plan.__dict__,
        "delta_ms": {
            "kesi": {q: percentile(lsp_delta, q) for q in (50, 90, 99, 100)},
            "sdk": {q: percentile(sdk_delta, q) for q in (50, 90, 99, 100)},
        },
        "end_ms": {
            "kesi": {q: percentile(lsp_end, q) for q in (50, 90, 99, 100)},
            "sdk": {q: percentile(sdk_end, q) for q in (50, 90, 99, 100)},
        },
    }


__all__ = ["FULL", "SMOKE", "Path", "run"]
