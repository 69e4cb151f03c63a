"""Benchmark 8: what keeping change sets costs while the user types (design §2.9).

Every keystroke reaches the server as a `didChange`; with change sets on, each one also moves
or touches the hunks of that file. The file has 10,000 lines, and a run has landed 20 edits
spread over it (pending). The typing: pairs of edits that leave the text as it was, at lines
between the hunks, half of them shifting every hunk below (a new line, then its removal), half
within a line (a character typed, then deleted).

1. **The bookkeeping itself** (`changes_hook.py`): the server's hook that sees each change
   before pygls applies it, timed call by call (CPU time) in this process on the server's real
   parts, with change sets on and (the baseline) off. Target: p99 < 1 ms.
2. **Over the wire** (`changes_wire.py`): the same typing into two `kesi-lsp` processes, one
   with `changeSets` off, alternating round by round; each keystroke timed from its `didChange`
   to the answer of a request right behind it. Shown: the p99 each server needs and what change
   sets add to it (on a shared machine that difference is mostly noise; it is not checked in
   CI). Also: that after all the typing the 20 hunks are still pending exactly over the
   agent's text, and how long the marks take to arrive once the typing pauses (the server
   publishes them then, not on every keystroke).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from bench.api_server import ApiProcess
from bench.changes_hook import HookTimes, time_hook
from bench.changes_wire import Keystroke, Server
from bench.common import scratch
from bench.report import Figure, Report
from bench.stats import ms, percentile
from kesi_lsp.scripted_api import Script, Step, TextBlock, Timing, ToolUseBlock

NAME = "changes"
LINES = 10_000
HUNKS = 20
QUIET = 0.1  # the server's pause before it publishes the marks (change_feed.PUBLISH_QUIET)


@dataclass(frozen=True)
class Plan:
    hook_rounds: int  # typing pairs timed in the process
    wire_rounds: int  # typing pairs per server over the wire


FULL = Plan(hook_rounds=20_000, wire_rounds=1500)
SMOKE = Plan(hook_rounds=1000, wire_rounds=300)  # p99 over 2,000 keystrokes a side


def hunk_lines() -> list[int]:
    """The 0-based lines the run changes: one every LINES / HUNKS lines."""
    step = LINES // HUNKS
    return [step // 2 + i * step for i in range(HUNKS)]


def original(line: int) -> str:
    return f"value_{line:05d} = {line}\n"


def changed(line: int) -> str:
    return f"value_{line:05d} = {line} * 2  # KeSi\n"


def texts() -> tuple[str, str]:
    """The file before the run and after it."""
    before = "".join(original(n) for n in range(LINES))
    marked = set(hunk_lines())
    after = "".join(changed(n) if n in marked else original(n) for n in range(LINES))
    return before, after


def build_script() -> Script:
    edits = tuple(
        ToolUseBlock(
            "edit_file",
            {"file_path": "big.py", "old_string": original(n), "new_string": changed(n)},
        )
        for n in hunk_lines()
    )
    one_run = (
        Step(content=(TextBlock("Twenty edits."), *edits), timing=Timing(json_chunk=400)),
        Step(content=(TextBlock("Done."),)),
    )
    return Script(steps=one_run * 2)  # a run in each server


def typing(rounds: int, seed: int = 13) -> list[Keystroke]:
    """`rounds` pairs of keystrokes between the hunks, each pair leaving the text as it was."""
    rng = random.Random(seed)
    taken = set(hunk_lines())
    out: list[Keystroke] = []
    for n in range(rounds):
        line = rng.randrange(0, LINES)
        while line in taken:
            line = rng.randrange(0, LINES)
        if n % 2 == 0:  # a new line, then its removal: every hunk below moves twice
            out += [((line, 0), (line, 0), "# typed\n"), ((line, 0), (line + 1, 0), "")]
        else:  # a character typed and deleted within a line
            out += [((line, 0), (line, 0), "x"), ((line, 0), (line, 1), "")]
    return out


async def run(report: Report, *, smoke: bool) -> None:
    plan = SMOKE if smoke else FULL
    before, after = texts()
    keys = typing(plan.hook_rounds)
    with scratch("changes") as work:
        on_hook = await time_hook(
            _folder(work / "hook-on", after), before, after, keys, change_sets=True
        )
        off_hook = await time_hook(
            _folder(work / "hook-off", after), before, after, keys, change_sets=False
        )
        api = await ApiProcess.start(build_script(), work / "api")
        on = Server(_folder(work / "on", before), api.base_url, change_sets=True)
        off = Server(_folder(work / "off", before), api.base_url, change_sets=False)
        try:
            await on.start("Double the twenty values.")
            await off.start("Double the twenty values.")
            wire = typing(plan.wire_rounds, seed=29)
            for key in typing(50, seed=3):  # warm-up, not counted
                await on.keystroke(key, timed=False)
                await off.keystroke(key, timed=False)
            for n in range(0, len(wire), 2):
                first, second = (on, off) if n % 4 == 0 else (off, on)
                for server in (first, second):
                    await server.keystroke(wire[n])
                    await server.keystroke(wire[n + 1])
            right = await on.pending_hunks_at({n: changed(n) for n in hunk_lines()})
            marks = await on.marks_after_pause(((0, 0), (0, 0), "# one more\n"), QUIET)
        finally:
            await on.client.stop()
            await off.client.stop()
            summary = await api.finish()
    if summary["problems"]:
        raise RuntimeError(f"the scripted API saw problems: {summary['problems'][:3]}")
    _hook_figures(report, on_hook, off_hook)
    _wire_figures(report, plan, on, off, right, marks)


def _folder(path: Path, text: str) -> Path:
    path.mkdir(parents=True)
    (path / "big.py").write_text(text, encoding="utf-8")
    return path.resolve()


def _hook_figures(report: Report, on: HookTimes, off: HookTimes) -> None:
    on_ms, off_ms, pygls_ms = (
        [ms(s) for s in on.hook],
        [ms(s) for s in off.hook],
        [ms(s) for s in on.pygls],
    )
    note = f"{len(on_ms)} keystrokes, {LINES:,}-line file, {HUNKS} pending hunks"
    report.add(
        Figure(
            NAME,
            "bookkeeping per didChange: p99",
            percentile(on_ms, 99),
            "ms",
            1.0,
            baseline=f"change sets off: {percentile(off_ms, 99):.4f} ms",
            note=note,
        )
    )
    report.add(
        Figure(
            NAME,
            "bookkeeping per didChange: median",
            percentile(on_ms, 50),
            "ms",
            None,
            baseline=f"change sets off: {percentile(off_ms, 50):.4f} ms",
        )
    )
    report.add(
        Figure(
            NAME,
            "pygls applying the same didChange: p99",
            percentile(pygls_ms, 99),
            "ms",
            None,
            baseline="what incremental sync costs any server, for scale",
        )
    )
    report.details[f"{NAME}_hook"] = {
        "on_ms": {"p50": percentile(on_ms, 50), "p99": percentile(on_ms, 99), "max": max(on_ms)},
        "off_ms": {"p50": percentile(off_ms, 50), "p99": percentile(off_ms, 99)},
        "pygls_ms": {"p50": percentile(pygls_ms, 50), "p99": percentile(pygls_ms, 99)},
    }


def _wire_figures(
    report: Report, plan: Plan, on: Server, off: Server, right: int, marks: float
) -> None:
    on_ms, off_ms = [ms(s) for s in on.samples], [ms(s) for s in off.samples]
    p99_on, p99_off = percentile(on_ms, 99), percentile(off_ms, 99)
    both = f"{len(on_ms)} keystrokes each, interleaved"
    report.add(
        Figure(
            NAME,
            "didChange over the wire, change sets on: p99",
            p99_on,
            "ms",
            None,
            baseline=f"off: {p99_off:.2f} ms",
            note=both,
        )
    )
    report.add(
        Figure(
            NAME,
            "didChange over the wire, added by change sets: p99",
            p99_on - p99_off,
            "ms",
            1.0,
            baseline="the same server with changeSets off",
            note=both,
            ci=False,
        )
    )
    report.add(
        Figure(
            NAME,
            "hunks no longer pending over the agent's text after typing",
            HUNKS - right,
            "",
            0,
            baseline=f"of {HUNKS}",
        )
    )
    report.add(
        Figure(
            NAME,
            "marks after the typing pauses",
            ms(marks),
            "ms",
            ms(QUIET) + 50,
            baseline=f"the server waits {ms(QUIET):.0f} ms of quiet",
            ci=False,
        )
    )
    report.details[NAME] = {
        "plan": plan.__dict__,
        "on_ms": {"p50": percentile(on_ms, 50), "p99": p99_on, "max": max(on_ms)},
        "off_ms": {"p50": percentile(off_ms, 50), "p99": p99_off, "max": max(off_ms)},
    }
