"""Benchmark 13: background tasks cost the foreground nothing (issue 28's "done means").

- **A foreground command is not slower** with the task machinery at work: `run_command` of a
  quick command (`true`) through the real tool path (the gate, the sandbox the machine has:
  bubblewrap here), timed in two sessions side by side, round by round: one with no task, one
  with an idle background task running (`sleep`). Under bubblewrap, the second session's
  commands also join the network namespace it shares from its first task on
  (`sandbox/netns.py`), so that path is what is measured. Target: the median with a task <=
  1.25x the median without (the same run's baseline; noise on a shared machine is ~10%).
- **Four chatty tasks keep the editor's answers instant**: over the real wire (`kesi-lsp` over
  stdio, the scripted Messages API in its own process), one run starts four background tasks
  that each print 10 MB/s; while they run, `textDocument/codeAction` and `kesi.cost` are probed
  back to back as in benchmark 2. Baseline: the same probes before any task, in the same run.
  Target: p99 < 50 ms while they print (the ratio to idle is shown). The tasks' own count of
  what they printed (their last line, from `kesi.tasks`) shows that they did print 10 MB/s each.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.api_server import ApiProcess
from bench.common import cpu_seconds, kesi_argv, scratch, server_env
from bench.lsp_client import LspClient
from bench.report import Figure, Report
from bench.responsiveness import Prober
from bench.stats import ms, percentile
from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest
from kesi_lsp.core.disk import DiskWorkspace
from kesi_lsp.core.errors import SandboxUnavailableError
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.sandbox.selection import select_sandbox
from kesi_lsp.core.session import Session
from kesi_lsp.core.tools import run_tool
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.demo.project import build
from kesi_lsp.scripted_api import Script, Step, TextBlock, ToolUseBlock

NAME = "tasks"
CHATTY = 4
RATE = 10_000_000  # bytes per second, each


@dataclass(frozen=True)
class Plan:
    rounds: int
    chatty_seconds: float
    idle_probes: int


FULL = Plan(rounds=60, chatty_seconds=10.0, idle_probes=600)
SMOKE = Plan(rounds=25, chatty_seconds=4.0, idle_probes=300)


class _Allow:
    async def approve_command(self, request: CommandRequest) -> Choice:
        return Choice.ALLOW_ONCE

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.DENY


def _context(root: Path, sandbox: Sandbox) -> ToolContext:
    session = Session(root=root)
    approver = _Allow()
    view = DiskWorkspace(root, approver)
    return ToolContext(
        session, view, PermissionGate(session, approver), sandbox=sandbox, environ=os.environ
    )


async def _timed(ctx: ToolContext, command: str) -> float:
    started = time.monotonic()
    result = await run_tool("run_command", {"command": command}, ctx)
    took = time.monotonic() - started
    if result.is_error:
        raise RuntimeError(f"{command!r} failed: {result.text[:300]}")
    return took


async def foreground(report: Report, plan: Plan) -> None:
    """`true` in a session without tasks and in one with an idle task, interleaved."""
    with scratch("tasks-fg") as work:
        plain_root, busy_root = work / "plain", work / "busy"
        for folder in (plain_root, busy_root):
            folder.mkdir()
        try:
            sandbox = select_sandbox("auto", plain_root, os.environ)
            busy_box = select_sandbox("auto", busy_root, os.environ)
        except SandboxUnavailableError as exc:
            raise RuntimeError(f"no sandbox to measure commands in: {exc}") from exc
        plain, busy = _context(plain_root, sandbox), _context(busy_root, busy_box)
        started = await run_tool("run_command", {"command": "sleep 600", "background": True}, busy)
        if started.is_error or not busy.session.tasks.running():
            raise RuntimeError(f"the idle task did not start: {started.text[:300]}")
        try:
            for ctx in (plain, busy):  # warm-up: the first command of a session
                await _timed(ctx, "true")
            without: list[float] = []
            with_task: list[float] = []
            for n in range(plan.rounds):
                pair = ((plain, without), (busy, with_task))
                for ctx, times in pair if n % 2 == 0 else pair[::-1]:
                    times.append(await _timed(ctx, "true"))
        finally:
            await busy.session.tasks.stop_all()
    base, task = statistics.median(without), statistics.median(with_task)
    report.add(
        Figure(
            NAME,
            "foreground command with an idle background task / without",
            task / base,
            "x",
            1.25,
            baseline=(
                f"median {task * 1000:.1f} ms with a task vs {base * 1000:.1f} ms without "
                f"({sandbox.kind})"
            ),
            note=f"`true` through run_command, {plan.rounds} interleaved rounds each",
        )
    )
    report.details[f"{NAME}.foreground"] = {
        "sandbox": sandbox.kind,
        "without_ms": [round(ms(t), 2) for t in without],
        "with_task_ms": [round(ms(t), 2) for t in with_task],
    }


def chatty_command(index: int) -> str:
    """A command that prints RATE bytes a second (64 KB writes of 1 KB lines, paced), each line
    starting with how many bytes it printed so far."""
    return (
        'python3 -c "import sys, time\n'
        "out = sys.stdout.buffer; t = time.monotonic(); n = 0\n"
        "while True:\n"
        "    block = b''.join(\n"
        "        b'%012d ' % (n + i * 1024) + b'x' * 1010 + b'\\n' for i in range(64))\n"
        "    out.write(block); out.flush(); n += len(block)\n"
        f"    late = t + n / {RATE} - time.monotonic()\n"
        f'    time.sleep(late) if late > 0 else None" # chatty {index}'
    )


def build_script() -> Script:
    warm_up = Step(content=(TextBlock("Ready."),), label="first run")
    start = Step(
        content=tuple(
            ToolUseBlock("run_command", {"command": chatty_command(i), "background": True})
            for i in range(CHATTY)
        ),
        label="start four chatty tasks",
    )
    done = Step(content=(TextBlock("They run."),), label="done")
    return Script(steps=(warm_up, start, done))


async def _printed(client: LspClient) -> list[int]:
    """Each task's own count of the bytes it printed (its last line's first field)."""
    listed = await client.command("kesi.tasks", {})
    counts = []
    for item in listed["tasks"]:
        first = str(item["lastLine"]).split(" ", 1)[0]
        counts.append(int(first) if first.isdigit() else 0)
    return counts


async def chatty(report: Report, plan: Plan) -> None:
    from bench.common import Runs

    with scratch("tasks-chatty") as work:
        project = build(work / "project")
        api = await ApiProcess.start(build_script(), work / "api")
        client = LspClient(kesi_argv(), env=server_env(api.base_url), cwd=project)
        runs = Runs(client)
        try:
            await client.start()
            await client.initialize(project)
            uri = client.open(project / "pricing.py")
            await runs.ask(client, "Are you there?")
            idle = Prober(client, uri)
            await idle.loop(plan.idle_probes // 4)  # warm-up, not counted
            idle.samples.clear()
            await idle.loop(plan.idle_probes)
            log = await runs.ask(client, "Start the four of them.", seconds=120)
            assert log.finished is not None
            if log.finished[1]["status"] != "done":
                raise RuntimeError(f"the run did not go as scripted: {log.finished[1]}")
            before, began = await _printed(client), time.monotonic()
            cpu_before = cpu_seconds(client.pid)
            busy = Prober(client, uri)
            stop = asyncio.Event()
            probing = asyncio.create_task(busy.loop(None, stop))
            await asyncio.sleep(plan.chatty_seconds)  # the measured window (a bench, not a test)
            stop.set()
            await probing
            after, ended = await _printed(client), time.monotonic()
            cpu = cpu_seconds(client.pid) - cpu_before
            states = [t["state"] for t in (await client.command("kesi.tasks", {}))["tasks"]]
            await client.command("kesi.reset", {})
        finally:
            await client.stop()
            summary = await api.finish()
    if summary["problems"]:
        raise RuntimeError(f"the scripted API saw problems: {summary['problems'][:3]}")
    if states != ["running"] * CHATTY:
        raise RuntimeError(f"the chatty tasks did not all run: {states}")
    rates = [(a - b) / (ended - began) / 1e6 for a, b in zip(after, before, strict=True)]
    _chatty_figures(report, idle, busy, rates)
    megabytes = sum(a - b for a, b in zip(after, before, strict=True)) / 1e6
    report.add(
        Figure(
            NAME,
            "server CPU per MB the chatty tasks printed",
            cpu * 1000 / megabytes if megabytes else float("nan"),
            "ms",
            10.0,
            baseline=(
                f"{cpu:.2f} s of the server's CPU for {megabytes:.0f} MB in "
                f"{ended - began:.1f} s (probes included)"
            ),
            note="each task's output read into its 1 MB ring; 10 ms/MB: 40 MB/s is 40% of a core",
        )
    )


def _chatty_figures(report: Report, idle: Prober, busy: Prober, rates: list[float]) -> None:
    details: dict[str, Any] = {"rates_mb_s": [round(r, 2) for r in rates]}
    shown = ", ".join(f"{r:.1f}" for r in rates)
    for method, label in (("codeAction", "textDocument/codeAction"), ("kesi.cost", "kesi.cost")):
        calm = [ms(s) for _, m, s in idle.samples if m == method]
        during = [ms(s) for _, m, s in busy.samples if m == method]
        idle99, busy99 = percentile(calm, 99), percentile(during, 99)
        report.add(
            Figure(
                NAME,
                f"{label} p99 while {CHATTY} tasks print 10 MB/s each",
                busy99,
                "ms",
                50.0,
                baseline=(
                    f"idle p99 {idle99:.2f} ms ({busy99 / idle99:.2f}x); worst {max(during):.1f} "
                    f"ms; the tasks printed {shown} MB/s"
                ),
                note=f"{len(during)} busy, {len(calm)} idle samples",
            )
        )
        details[method] = {
            "idle": {q: percentile(calm, q) for q in (50, 99, 100)},
            "busy": {q: percentile(during, q) for q in (50, 99, 100)},
        }
    slowest = min(rates)
    report.add(
        Figure(
            NAME,
            "slowest chatty task's output rate / 10 MB/s (it really printed that much)",
            RATE / 1e6 / slowest if slowest > 0 else float("inf"),
            "x",
            1.25,
            baseline=f"the tasks printed {shown} MB/s (their own byte counts)",
            note="the load the p99 above was measured under",
            ci=False,
        )
    )
    report.details[f"{NAME}.chatty"] = details


async def run(report: Report, *, smoke: bool) -> None:
    plan = SMOKE if smoke else FULL
    await foreground(report, plan)
    await chatty(report, plan)
