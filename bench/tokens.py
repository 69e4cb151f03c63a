"""Benchmark 5: what the conversation costs in input tokens, measured by the scripted API.

The core loop (`run_agent`, the real SDK over HTTP) plays a scripted scenario against the
scripted Messages API, whose accounting counts every request's input tokens and prompt-cache
reads and writes (`kesi_lsp/scripted_api/tokens.py`; prefixes under 4,096 tokens are not
cached, as with Claude Haiku 4.5). The bill compared is the **billed-input-equivalent**:
input + 1.25 x cache writes + 0.1 x cache reads, summed over all requests.

Each scenario runs under several settings in the same run:
- `seed`: no caching, no trimming: the seed's plain resend-everything loop (the baseline);
- `caching`: prompt caching only;
- `trimming`: context trimming only;
- `kesi`: both (KeSi's defaults) — the target is <= 0.45 x the seed;
- `eager`: both, but trimming superseded results at once instead of waiting for the budget,
  to show why KeSi waits (each early trim rewrites the cache).

Scenarios: the seed's Day 18 eight questions (`day18.py`), and a longer session where the
history passes the trimming budget (`longsession.py`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from unittest import mock

from bench import day18, longsession
from bench.common import FAKE_KEY, scratch
from bench.report import Figure, Report
from kesi_lsp.core import trim
from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest
from kesi_lsp.core.disk import DiskWorkspace
from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.history import check_history
from kesi_lsp.core.loop import run_agent
from kesi_lsp.core.model.anthropic import ModelClient
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings import AgentSettings
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.demo import project
from kesi_lsp.scripted_api import Script, ScriptedServer, Step, UsageRecord

NAME = "tokens"
MIN_CACHE_TOKENS = 4096
TARGET = 0.45


class AllowAll:
    """Says yes once to everything (the seed's demo did the same)."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        return Choice.ALLOW_ONCE

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.ALLOW_ONCE


@dataclass(frozen=True)
class Config:
    name: str
    caching: bool
    trimming: bool
    eager: bool = False


CONFIGS = (
    Config("seed", caching=False, trimming=False),
    Config("caching", caching=True, trimming=False),
    Config("trimming", caching=False, trimming=True),
    Config("kesi", caching=True, trimming=True),
    Config("eager", caching=True, trimming=True, eager=True),
)


@dataclass(frozen=True)
class Bill:
    requests: int
    input: int
    cache_write: int
    cache_read: int
    output: int
    statuses: tuple[str, ...]
    trims: int

    @property
    def equivalent(self) -> float:
        return self.input + 1.25 * self.cache_write + 0.1 * self.cache_read

    @property
    def sent(self) -> int:
        return self.input + self.cache_write + self.cache_read


def _bill(records: list[UsageRecord], statuses: list[str], trims: int) -> Bill:
    return Bill(
        requests=len(records),
        input=sum(r.usage.input_tokens for r in records),
        cache_write=sum(r.usage.cache_creation_input_tokens for r in records),
        cache_read=sum(r.usage.cache_read_input_tokens for r in records),
        output=sum(r.usage.output_tokens for r in records),
        statuses=tuple(statuses),
        trims=trims,
    )


def _eager_policy(*, prompt_caching: bool, budget_tokens: int) -> trim.TrimPolicy:
    policy = trim.TrimPolicy(budget_tokens=budget_tokens, target_tokens=budget_tokens // 2)
    return replace(policy, superseded_now=True)


async def play(
    config: Config,
    questions: Sequence[str],
    steps: list[Step],
    build: Callable[[Path], Path],
    work: Path,
) -> Bill:
    """Ask every question in one session; return the scripted API's bill."""
    root = build(work / f"project-{config.name}")
    settings = AgentSettings(
        prompt_caching=config.caching, context_trimming=config.trimming, locale="zh-TW"
    )
    session = Session(root=root, settings=settings)
    approver = AllowAll()
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    environ = {"PATH": path, "HOME": str(work), "LANG": "C.UTF-8"}
    ctx = ToolContext(
        session=session,
        view=DiskWorkspace(root, approver),
        gate=PermissionGate(session, approver, home=work),
        environ=environ,
    )
    trims = 0
    real_apply = trim.apply

    def counting_apply(*args: Any, **kwargs: Any) -> trim.TrimReport:
        nonlocal trims
        trims += 1
        return real_apply(*args, **kwargs)

    script = Script(steps=tuple(steps), min_cache_tokens=MIN_CACHE_TOKENS)
    statuses: list[str] = []
    with ScriptedServer(script) as server:
        model = ModelClient(
            replace(settings, api_key=FAKE_KEY, base_url=server.base_url), {}, max_retries=0
        )
        patches: list[Any] = [mock.patch.object(trim, "apply", counting_apply)]
        if config.eager:
            patches.append(mock.patch.object(trim, "policy_for", _eager_policy))
        for patch in patches:
            patch.start()
        try:
            for question in questions:
                finished: RunFinished = await run_agent(ctx, question, model)
                statuses.append(finished.status)
        finally:
            for patch in patches:
                patch.stop()
            await model.aclose()
        problems = server.problems + check_history(session.history)
        records = server.accounting
    if problems:
        raise RuntimeError(f"{config.name}: the scenario broke: {problems[:3]}")
    if len(records) != len(steps) or set(statuses) != {"done"}:
        raise RuntimeError(f"{config.name}: {len(records)} requests, statuses {statuses}")
    return _bill(records, statuses, trims)


async def run(report: Report, *, smoke: bool) -> None:
    day18_steps = day18.replies()
    long_questions, long_steps = longsession.scenario()
    scenarios = {
        "day 18": (day18.QUESTIONS, day18_steps, project.build),
        "long session": (long_questions, long_steps, longsession.build),
    }
    configs = CONFIGS if not smoke else tuple(c for c in CONFIGS if c.name in ("seed", "kesi"))
    details: dict[str, Any] = {}
    with scratch("tokens") as work:
        for label, (questions, steps, build) in scenarios.items():
            bills: dict[str, Bill] = {}
            for config in configs:
                started = time.monotonic()
                bills[config.name] = await play(config, questions, steps, build, work / label)
                details.setdefault(label, {})[config.name] = {
                    **bills[config.name].__dict__,
                    "equivalent": bills[config.name].equivalent,
                    "seconds": round(time.monotonic() - started, 2),
                }
            _figures(report, label, bills)
    report.details[NAME] = details


def _figures(report: Report, label: str, bills: dict[str, Bill]) -> None:
    seed = bills["seed"].equivalent
    for name, bill in bills.items():
        if name == "seed":
            continue
        report.add(
            Figure(
                NAME,
                f"{label}: {name} / seed, billed-input-equivalent",
                bill.equivalent / seed,
                "x",
                TARGET if name == "kesi" and label == "day 18" else None,
                baseline=f"{bill.equivalent:,.0f} vs seed {seed:,.0f} tokens "
                f"({bill.requests} requests, {bill.trims} trims)",
            )
        )
