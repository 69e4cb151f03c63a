"""Benchmark 7: several reads in one reply run at the same time (Day 06; issue 14).

Day 06 notes that one reply may ask for several `read_file`s, and that KeSi's `for` ran them
one after another. The core now runs a reply's read-only calls together
(`kesi_lsp.core.tool_calls`). Measured with the real tools and the real scheduling, on files
behind a slow path: a workspace view whose every read waits in a worker thread, as on a
network filesystem (0.2, 0.3 and 0.4 s for the three files). Each file is read alone first
(its own reply); then one reply asks for all three. Target: the three together take at most
1.3x the slowest single read. Baseline: the sum of the single reads (the seed's `for`).
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, Final

from bench.common import scratch
from bench.report import Figure, Report
from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest
from kesi_lsp.core.disk import DiskWorkspace, read_utf8
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.session import Session
from kesi_lsp.core.tool_calls import run_calls
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.workspace import FileText

NAME = "parallel_reads"
DELAYS: Final = {"a.py": 0.2, "b.py": 0.3, "c.py": 0.4}


class _Deny:
    async def approve_command(self, request: CommandRequest) -> Choice:
        return Choice.DENY

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.DENY


class SlowPath(DiskWorkspace):
    """Every read of a file waits DELAYS[name] seconds in a worker thread first."""

    async def read_text(self, path: Path) -> FileText:
        def slow() -> str:
            time.sleep(DELAYS.get(path.name, 0.0))
            return read_utf8(path)

        return FileText(await asyncio.to_thread(slow))


def _uses(names: list[str]) -> list[Any]:
    return [
        {"type": "tool_use", "id": f"toolu_{n}", "name": "read_file", "input": {"file_path": n}}
        for n in names
    ]


async def _timed(ctx: ToolContext, names: list[str]) -> float:
    started = time.monotonic()
    results, interrupted = await run_calls(_uses(names), ctx)
    took = time.monotonic() - started
    assert not interrupted and not any(r["is_error"] for r in results), results
    return took


async def run(report: Report, *, smoke: bool) -> None:
    rounds = 2 if smoke else 5
    with scratch("parallel") as root:
        for name in DELAYS:
            (root / name).write_text(f"# {name}\n" * 50, encoding="utf-8")
        session = Session(root=root)
        ctx = ToolContext(
            session=session,
            view=SlowPath(root, _Deny()),
            gate=PermissionGate(session, _Deny()),
        )
        single: dict[str, list[float]] = {name: [] for name in DELAYS}
        together: list[float] = []
        for _ in range(rounds):
            for name in DELAYS:
                single[name].append(await _timed(ctx, [name]))
            together.append(await _timed(ctx, list(DELAYS)))
    slowest = max(min(times) for times in single.values())
    best = min(together)
    sequential = sum(min(times) for times in single.values())
    report.add(
        Figure(
            NAME,
            "three reads in one reply on a slow path: wall time / slowest single read",
            best / slowest,
            "x",
            1.3,
            baseline=(
                f"together {best * 1000:.0f} ms vs slowest alone {slowest * 1000:.0f} ms; "
                f"one after another (the seed's for) {sequential * 1000:.0f} ms"
            ),
            note=f"best of {rounds} rounds; reads wait 0.2 / 0.3 / 0.4 s in a worker thread",
        )
    )
    report.details[NAME] = {
        "single_s": single,
        "together_s": together,
    }
