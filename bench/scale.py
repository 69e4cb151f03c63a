"""Benchmark 3: the tools on a repository of 100,000 files / 2 GB (generated, then removed).

One run whose scripted replies call, one per turn: list_files of a 5,000-entry folder and of
the root, glob `**/*.py`, grep of a rare and of a common pattern, read_file of a 5 MB log and of
the largest file read_file returns (250 KB). For each call: the wall time from `toolStart` to
`toolEnd` (as the client sees them), the server's CPU time (its own and its children's, e.g.
rg), and the size of the result the model got (from the scripted API's record of the next
request), against the tool's caps. Meanwhile the server's RSS is sampled every 20 ms, and the
client keeps asking for code actions and `kesi.cost` to catch a blocked event loop.

Baselines in the same run, on the same files: `rg` alone with the tool's own flags for the two
greps, and `rg --files --glob *.py` for the glob. One pass of them runs before KeSi's calls so
that both find the files in the page cache (a freshly written tree is; its directory entries
may not be), and the measured pass runs after.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench import repo
from bench.api_server import ApiProcess
from bench.common import (
    Runs,
    cpu_seconds,
    kesi_argv,
    memory_folder,
    rss_mb,
    scratch,
    server_env,
)
from bench.lsp_client import LspClient
from bench.report import Figure, Report
from bench.responsiveness import Prober
from bench.stats import ms
from kesi_lsp.core.tools.files import MAX_READ_BYTES
from kesi_lsp.core.tools.ripgrep import MAX_SEARCH_LINES, find_rg, rg_argv
from kesi_lsp.core.tools.search import MAX_LIST_FILES
from kesi_lsp.scripted_api import Script, Step, TextBlock, ToolUseBlock

NAME = "scale"
RSS_LIMIT_MB = 200.0
SECONDS_LIMIT = 1.0


@dataclass(frozen=True)
class Call:
    label: str
    tool: str
    input: dict[str, str]
    cap_lines: int | None = None  # result lines the model gets (the cap, its note, a marker)
    cap_bytes: int | None = None


MARKER_LINES = 2
"""The lines around a file's or a command's text as the model gets it (`core/untrusted.py`:
`<data from=...>` and `</data>`), counted here since the model reads them too; list_files
and glob list names and are not marked."""

CALLS = (
    Call(
        "list_files generated/ (5,000 entries)",
        "list_files",
        {"path": "generated"},
        cap_lines=MAX_LIST_FILES + 1,
    ),
    Call("list_files of the root", "list_files", {}, cap_lines=MAX_LIST_FILES + 1),
    Call("glob **/*.py", "glob", {"pattern": "**/*.py"}, cap_lines=MAX_LIST_FILES + 1),
    Call(
        "grep rare pattern (3 files)",
        "grep",
        {"pattern": repo.RARE},
        cap_lines=MAX_SEARCH_LINES + 1 + MARKER_LINES,
    ),
    Call(
        "grep common pattern",
        "grep",
        {"pattern": repo.COMMON},
        cap_lines=MAX_SEARCH_LINES + 1 + MARKER_LINES,
    ),
    Call(
        "read_file of a 5 MB log",
        "read_file",
        {"file_path": "data/log_000.log"},
        cap_bytes=MAX_READ_BYTES,
    ),
    Call(
        "read_file of 250 KB (the largest it returns)",
        "read_file",
        {"file_path": "pkg_00/big_module.py"},
        cap_bytes=MAX_READ_BYTES,
    ),
)


def use_id(round_no: int, n: int) -> str:
    return f"toolu_scale_{round_no}_{n}"


def build_script() -> Script:
    """A first run (loads the agent), then the calls twice: timed, then probed."""
    steps = [Step(content=(TextBlock("Ready."),), label="first run")]
    for round_no in (1, 2):
        for n, call in enumerate(CALLS):
            use = ToolUseBlock(call.tool, call.input, id=use_id(round_no, n))
            steps.append(Step(content=(use,), label=f"{call.label} ({round_no})"))
        steps.append(Step(content=(TextBlock("Looked around."),), label=f"done ({round_no})"))
    return Script(steps=tuple(steps))


class Sampler:
    """Samples the server's RSS every 20 ms until stopped."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0.0
        self.samples = 0
        self._stop = asyncio.Event()

    async def loop(self) -> None:
        while not self._stop.is_set():
            current, _ = rss_mb(self.pid)
            self.peak = max(self.peak, current)
            self.samples += 1
            await asyncio.sleep(0.02)

    def stop(self) -> None:
        self._stop.set()


async def _timed_subprocess(argv: list[str], cwd: Path, *, max_lines: int | None = None) -> float:
    """Run a command, read its output (like `| head -n max_lines` when given), return the time.

    The line limit makes the baseline do what KeSi's grep does (stop once it has the lines it
    will show), so the comparison is like for like.
    """
    started = time.monotonic()
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    assert proc.stdout is not None
    lines = 0
    while chunk := await proc.stdout.read(1 << 16):
        lines += chunk.count(b"\n")
        if max_lines is not None and lines >= max_lines:
            proc.kill()
            break
    elapsed = time.monotonic() - started
    await proc.wait()
    return elapsed


async def _baselines(root: Path) -> dict[str, float]:
    rg = find_rg()
    assert rg is not None
    return {
        "grep rare pattern (3 files)": await _timed_subprocess(rg_argv(rg, repo.RARE, "."), root),
        "grep common pattern": await _timed_subprocess(
            rg_argv(rg, repo.COMMON, "."), root, max_lines=MAX_SEARCH_LINES + 1
        ),
        "glob **/*.py": await _timed_subprocess([rg, "--files", "--glob", "*.py"], root),
    }


async def run(report: Report, *, smoke: bool) -> None:
    shape = repo.SMOKE if smoke else repo.FULL
    # In RAM when possible: writing and removing 2 GB on a shared disk takes minutes and slows
    # everyone's tests; the files are read from memory either way (a warm page cache).
    base = memory_folder(shape.files * shape.mean_bytes + shape.logs * shape.log_bytes)
    with scratch("scale", base) as work:
        started = time.monotonic()
        written = await asyncio.to_thread(repo.generate, work / "repo", shape)
        generated = time.monotonic() - started
        root = work / "repo"
        await _baselines(root)  # warm the page and dentry caches for KeSi and rg alike
        api = await ApiProcess.start(build_script(), work / "api")
        client = LspClient(kesi_argv(), env=server_env(api.base_url), cwd=root)
        runs = Runs(client)
        cpu: dict[str, float] = {}

        def on_stream(stamp: float, params: Any) -> None:
            runs.on_stream(stamp, params)
            if params.get("kind") in ("toolStart", "toolEnd"):
                cpu[f"{params['kind']}:{params['toolUseId']}"] = cpu_seconds(client.pid)

        client.handlers["kesi/stream"] = on_stream
        try:
            await client.start()
            # The calls' 2 MB of results pass the context budget, so compaction would spend a
            # scripted reply on a summary; this benchmark measures the tools, not the history.
            await client.initialize(root, options={"compaction": False})
            uri = client.open(root / "pkg_00" / "big_module.py")
            await runs.ask(client, "Are you there?")  # loads the agent (see responsiveness)
            sampler = Sampler(client.pid)
            sampling = asyncio.create_task(sampler.loop())
            # Timed alone: probing meanwhile would take CPU from rg on a 2-core machine.
            timed = await runs.ask(client, "Look around this repository.", seconds=600)
            prober = Prober(client, uri)
            stop = asyncio.Event()
            probing = asyncio.create_task(prober.loop(None, stop))
            probed = await runs.ask(client, "Once more, please.", seconds=600)
            stop.set()
            sampler.stop()
            await asyncio.gather(sampling, probing)
            _, peak = rss_mb(client.pid)
            baselines = await _baselines(root)
        finally:
            await client.stop()
            summary = await api.finish()
        removed = time.monotonic()
    report.details[NAME] = {
        "shape": shape.__dict__,
        "written": written,
        "generate_seconds": round(generated, 1),
        "where": "tmpfs (/dev/shm)" if base is not None else "the system temp folder (disk)",
        "rss_samples": sampler.samples,
    }
    _figures(report, timed, probed, summary, cpu, sampler, peak, prober, baselines)
    report.details[NAME]["remove_seconds"] = round(time.monotonic() - removed, 1)


def _figures(
    report: Report,
    log: Any,
    probed: Any,
    summary: dict[str, Any],
    cpu: dict[str, float],
    sampler: Sampler,
    peak_hwm: float,
    prober: Prober,
    baselines: dict[str, float],
) -> None:
    if summary["problems"]:
        raise RuntimeError(f"the scripted API saw problems: {summary['problems'][:3]}")
    for run in (log, probed):
        if run.finished is None or run.finished[1]["status"] != "done":
            raise RuntimeError(f"a run did not finish as scripted: {run.finished}")
    events = log.events + probed.events
    starts = {e["toolUseId"]: s for s, e in events if e.get("kind") == "toolStart"}
    ends = {e["toolUseId"]: (s, e) for s, e in events if e.get("kind") == "toolEnd"}
    results = {r["id"]: r for q in summary["requests"] for r in q["results"]}
    details: dict[str, Any] = {}
    probed_ids = [use_id(2, n) for n in range(len(CALLS))]
    first = min(starts[i] for i in probed_ids)
    last = max(ends[i][0] for i in probed_ids)
    for n, call in enumerate(CALLS):
        timed_id, probed_id = use_id(1, n), use_id(2, n)
        end, event = ends[timed_id]
        seconds = end - starts[timed_id]
        used = cpu.get(f"toolEnd:{timed_id}", 0.0) - cpu.get(f"toolStart:{timed_id}", 0.0)
        base = baselines.get(call.label)
        baseline = f"CPU {used:.2f} s" + (f"; rg alone {base:.2f} s" if base is not None else "")
        report.add(Figure(NAME, f"{call.label}: time", seconds, "s", SECONDS_LIMIT, baseline))
        result = results[timed_id]
        if call.cap_lines is not None:
            size, limit, unit = float(result["lines"]), float(call.cap_lines), "lines"
        else:
            size, limit, unit = float(result["bytes"]), float(call.cap_bytes or 0), "bytes"
        report.add(
            Figure(
                NAME,
                f"{call.label}: result size",
                size,
                unit,
                limit,
                baseline="the tool's cap",
                note=result["tail"][-120:].replace("\n", " | "),
            )
        )
        window = (starts[probed_id], ends[probed_id][0])
        waits = [ms(w) for sent, _, w in prober.samples if window[0] <= sent <= window[1]]
        details[call.label] = {
            "seconds": seconds,
            "seconds_while_probed": window[1] - window[0],
            "worst_probe_ms": max(waits) if waits else None,
            "cpu_seconds": used,
            "rg_alone_seconds": base,
            "is_error": event.get("isError"),
            "summary": event.get("summary"),
            "result": {k: result[k] for k in ("lines", "bytes", "is_error", "tail")},
        }
    report.add(
        Figure(
            NAME,
            "server peak RSS during the tools",
            max(sampler.peak, peak_hwm),
            "MB",
            RSS_LIMIT_MB,
            baseline=f"{sampler.samples} samples every 20 ms, and the kernel's high-water mark",
        )
    )
    during = [ms(s) for sent, _, s in prober.samples if first <= sent <= last]
    report.add(
        Figure(
            NAME,
            "worst codeAction / kesi.cost wait during the tools",
            max(during) if during else float("nan"),
            "ms",
            50.0,
            baseline=f"{len(during)} probes during the second round of calls",
            ci=False,
        )
    )
    report.details[NAME]["calls"] = details
