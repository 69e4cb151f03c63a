"""Benchmark 5: what the conversation costs in input tokens, measured by the scripted API.

The core loop (`run_agent`, the real SDK over HTTP) plays a scripted scenario against the
scripted Messages API, whose accounting counts every request's input tokens and prompt-cache
reads and writes (`kesi_lsp/scripted_api/tokens.py`; prefixes under 4,096 tokens are not
cached, as with Claude Haiku 4.5). The bill compared is the **billed-input-equivalent**:
input + 1.25 x cache writes + 0.1 x cache reads, summed over all requests.

Each scenario runs under several settings in the same run:
- `seed`: no caching, no trimming, no compaction, searches done inline: the seed's plain
  resend-everything loop (the baseline);
- `caching`: prompt caching only;
- `trimming`: context trimming only;
- `cache+trim`: both, searches inline: KeSi before compaction and the search sub-agent;
- `kesi`: KeSi's defaults: caching, trimming, compaction, wide searches through the search
  sub-agent, and the scripted API enforcing the model's 200,000-token context window;
- `eager`: caching and trimming, but trimming superseded results at once instead of waiting for
  the budget, to show why KeSi waits (each early trim rewrites the cache).

Scenarios: the seed's Day 18 eight questions (`day18.py`), and a long session (`longsession.py`:
40 rounds, twenty 16 KB modules, two wide searches). A third, one wide search on its own, measures
how much a search adds to the main conversation, inline and through the sub-agent.

The scripted model (`playbook.py`) gives the scenario's replies in order and writes a summary
whenever KeSi asks for one, from what that request carries.
"""

from __future__ import annotations

import json
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
from bench.playbook import Playbook
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
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.demo import project
from kesi_lsp.scripted_api import Script, ScriptedServer, Step, UsageRecord
from kesi_lsp.scripted_api.tokens import block_tokens

NAME = "tokens"
MIN_CACHE_TOKENS = 4096
CONTEXT_WINDOW = 200_000
TARGETS = {"day 18": 0.25, "long session": 0.10}
SEARCH_SHARE = 0.30


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
    compaction: bool = False
    subagent: bool = False  # wide searches through the search sub-agent
    eager: bool = False
    window: bool = False  # the scripted API refuses requests past the context window
    min_cache: int = MIN_CACHE_TOKENS  # the model's cache minimum (Claude Haiku 4.5: 4,096)


CONFIGS = (
    Config("seed", caching=False, trimming=False),
    Config("caching", caching=True, trimming=False),
    Config("trimming", caching=False, trimming=True),
    Config("cache+trim", caching=True, trimming=True),
    Config("kesi", caching=True, trimming=True, compaction=True, subagent=True, window=True),
    Config("eager", caching=True, trimming=True, eager=True),
)
SMOKE = ("seed", "kesi")


@dataclass(frozen=True)
class Bill:
    requests: int
    input: int
    cache_write: int
    cache_read: int
    output: int
    statuses: tuple[str, ...]
    trims: int
    summaries: int = 0
    largest: int = 0  # the largest request's input, cached or not
    refused: int = 0  # requests refused as too long for the context window
    first_cached: int = 0  # the first request that wrote or read the cache (1-based; 0: none)
    first_past_minimum: int = 0  # the first request at least the cache minimum long (0: none)

    @property
    def equivalent(self) -> float:
        return self.input + 1.25 * self.cache_write + 0.1 * self.cache_read

    @property
    def sent(self) -> int:
        return self.input + self.cache_write + self.cache_read

    @property
    def usd(self) -> float:
        """Billed at Claude Haiku 4.5's list prices: $1 input, $1.25 cache write, $0.10 cache
        read and $5 output per million tokens."""
        return (self.equivalent + 5 * self.output) / 1_000_000


def _bill(
    records: list[UsageRecord],
    statuses: list[str],
    counts: tuple[int, int, int],
    minimum: int,
) -> Bill:
    trims, summaries, refused = counts
    sizes = [
        r.usage.input_tokens + r.usage.cache_creation_input_tokens + r.usage.cache_read_input_tokens
        for r in records
    ]
    cached = [
        i
        for i, r in enumerate(records, 1)
        if r.usage.cache_creation_input_tokens or r.usage.cache_read_input_tokens
    ]
    past = [i for i, size in enumerate(sizes, 1) if size >= minimum]
    return Bill(
        requests=len(records),
        input=sum(r.usage.input_tokens for r in records),
        cache_write=sum(r.usage.cache_creation_input_tokens for r in records),
        cache_read=sum(r.usage.cache_read_input_tokens for r in records),
        output=sum(r.usage.output_tokens for r in records),
        statuses=tuple(statuses),
        trims=trims,
        summaries=summaries,
        largest=max(sizes, default=0),
        refused=refused,
        first_cached=cached[0] if cached else 0,
        first_past_minimum=past[0] if past else 0,
    )


def _eager_policy(*, prompt_caching: bool, budget_tokens: int) -> trim.TrimPolicy:
    policy = trim.TrimPolicy(budget_tokens=budget_tokens, target_tokens=budget_tokens // 2)
    return replace(policy, superseded_now=True)


Scenario = Callable[[bool], tuple[Sequence[str], list[Step]]]


async def play(
    config: Config, scenario: Scenario, build: Callable[[Path], Path], work: Path
) -> Bill:
    """Ask every question in one session; return the scripted API's bill."""
    bill, _ = await _session(config, scenario, build, work)
    return bill


async def _session(
    config: Config, scenario: Scenario, build: Callable[[Path], Path], work: Path
) -> tuple[Bill, Session]:
    questions, steps = scenario(config.subagent)
    root = build(work / f"project-{config.name}")
    settings = AgentSettings(
        prompt_caching=config.caching,
        context_trimming=config.trimming,
        compaction=config.compaction,
        locale="zh-TW",
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

    playbook = Playbook(steps, settings.locale)
    window = CONTEXT_WINDOW if config.window else None
    script = Script(min_cache_tokens=config.min_cache, context_window=window)
    statuses: list[str] = []
    with ScriptedServer(script, choose_step=playbook) as server:
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
        refused = sum(1 for r in server.requests if r.status == 400)
    if problems:
        raise RuntimeError(f"{config.name}: the scenario broke: {problems[:3]}")
    if playbook.left or set(statuses) != {"done"}:
        raise RuntimeError(f"{config.name}: {len(playbook.left)} replies unused, {statuses}")
    _check_answers(config, session, questions)
    counts = (trims, playbook.summaries, refused)
    return _bill(records, statuses, counts, config.min_cache), session


def _check_answers(config: Config, session: Session, questions: Sequence[str]) -> None:
    """The scenario still answers right: what its searches found is still in view at the end
    (in the turns themselves, or in a summary of them), not only requested and billed."""
    if questions[-1] != longsession.FINAL_QUESTION:
        return
    seen = json.dumps(session.history, ensure_ascii=False)
    missing = [ref for ref in longsession.FOUND if ref not in seen]
    if missing:
        raise RuntimeError(f"{config.name}: the last question no longer sees {missing}")


def day18_scenario(subagent: bool) -> tuple[Sequence[str], list[Step]]:
    return day18.QUESTIONS, day18.replies()


def _long(subagent: bool) -> tuple[Sequence[str], list[Step]]:
    return longsession.scenario(subagent=subagent)


def _wide(subagent: bool) -> tuple[Sequence[str], list[Step]]:
    return longsession.wide_search(subagent=subagent)


def _added_tokens(session: Session) -> int:
    """Tokens the search added to the main conversation: everything between the question and
    the answer, counted as the scripted API counts them."""
    total = 0
    for message in session.history[1:-1]:
        content = message["content"]
        blocks: list[Any] = (
            [{"type": "text", "text": content}] if isinstance(content, str) else list(content)
        )
        total += sum(block_tokens(b) for b in blocks)
    return total


async def search_share(work: Path) -> tuple[int, int]:
    """Tokens one wide search adds to the main conversation: (inline, through the sub-agent)."""
    added = []
    for subagent in (False, True):
        config = Config(f"wide-{'agent' if subagent else 'inline'}", True, True, subagent=subagent)
        _, session = await _session(config, _wide, longsession.build, work)
        added.append(_added_tokens(session))
    return added[0], added[1]


async def run(report: Report, *, smoke: bool) -> None:
    scenarios: dict[str, tuple[Scenario, Callable[[Path], Path]]] = {
        "day 18": (day18_scenario, project.build),
        "long session": (_long, longsession.build),
    }
    configs = CONFIGS if not smoke else tuple(c for c in CONFIGS if c.name in SMOKE)
    details: dict[str, Any] = {}
    with scratch("tokens") as work:
        for label, (scenario, build) in scenarios.items():
            bills: dict[str, Bill] = {}
            for config in configs:
                started = time.monotonic()
                bills[config.name] = await play(config, scenario, build, work / label)
                details.setdefault(label, {})[config.name] = {
                    **bills[config.name].__dict__,
                    "equivalent": bills[config.name].equivalent,
                    "seconds": round(time.monotonic() - started, 2),
                }
            _figures(report, label, bills)
        inline, agent = await search_share(work / "wide search")
        details["wide search"] = {"inline": inline, "subagent": agent}
    report.add(
        Figure(
            NAME,
            "wide search: tokens added to the main conversation, sub-agent / inline",
            agent / inline,
            "x",
            SEARCH_SHARE,
            baseline=f"{agent:,} vs inline {inline:,} tokens",
        )
    )
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
                TARGETS.get(label) if name == "kesi" else None,
                baseline=f"{bill.equivalent:,.0f} vs seed {seed:,.0f} tokens, "
                f"US${bill.usd:.4f} vs US${bills['seed'].usd:.4f} "
                f"({bill.requests} requests, {bill.trims} trims, {bill.summaries} summaries)",
            )
        )
    kesi = bills.get("kesi")
    if kesi is not None and label == "long session":
        report.add(
            Figure(
                NAME,
                f"{label}: kesi's largest request / context window",
                kesi.largest / CONTEXT_WINDOW,
                "x",
                1.0 if kesi.refused == 0 else 0.0,
                baseline=f"{kesi.largest:,} tokens, {kesi.refused} refused; the seed's largest "
                f"{bills['seed'].largest:,} (window {CONTEXT_WINDOW:,})",
            )
        )
