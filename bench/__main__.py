"""KeSi LSP's benchmarks (issue 9): `./dev bench`, i.e. `python -m bench`.

Runs every benchmark (tokens, startup, streaming, responsiveness, scale), prints each figure
next to its target and its same-run baseline, and writes the results as JSON (and Markdown with
--results). --smoke is the fast variant CI runs (tests/bench/test_smoke.py).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
import sys
import time
from pathlib import Path

from bench import machine, results
from bench.report import Report

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
BENCHES = (
    "tokens",
    "calibration",
    "startup",
    "streaming",
    "responsiveness",
    "scale",
    "first_request",
    "parallel_reads",
    "changes",
    "redaction",
    "cold_start",
    "network",
    "tasks",
)


async def _run(names: list[str], report: Report, smoke: bool) -> None:
    from bench import (
        calibration,
        changes,
        cold_start,
        first_request,
        network,
        parallel_reads,
        redaction,
        responsiveness,
        scale,
        startup,
        streaming,
        tasks,
        tokens,
    )

    benches = {
        "calibration": calibration.run,
        "changes": changes.run,
        "cold_start": cold_start.run,
        "first_request": first_request.run,
        "network": network.run,
        "parallel_reads": parallel_reads.run,
        "redaction": redaction.run,
        "streaming": streaming.run,
        "responsiveness": responsiveness.run,
        "startup": startup.run,
        "scale": scale.run,
        "tasks": tasks.run,
        "tokens": tokens.run,
    }
    for name in names:
        started = time.monotonic()
        print(f"== {name}", flush=True)
        await benches[name](report, smoke=smoke)
        report.seconds[name] = round(time.monotonic() - started, 1)


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--smoke", action="store_true", help="the fast CI variant")
    parser.add_argument(
        "--only", action="append", choices=BENCHES, help="run only this benchmark (repeatable)"
    )
    parser.add_argument(
        "--json", type=Path, default=OUT / "results.json", help="write the results here"
    )
    parser.add_argument("--results", type=Path, help="also write them as Markdown (RESULTS.md)")
    parser.add_argument(
        "--render", type=Path, metavar="JSON", help="run nothing: render --results from this JSON"
    )
    args = parser.parse_args()
    if args.render:
        report = Report.from_json(json.loads(args.render.read_text(encoding="utf-8")))
        command = report.details.get("command", "python -m bench")
        out = args.results or HERE / "RESULTS.md"
        out.write_text(results.markdown(report, command) + "\n", encoding="utf-8")
        print(f"wrote {out}")
        return 0
    names = args.only or list(BENCHES)
    report = Report("smoke" if args.smoke else "full", machine.describe())
    started = time.monotonic()
    asyncio.run(_run(names, report, args.smoke))
    report.seconds["total"] = round(time.monotonic() - started, 1)
    report.machine["load_average_at_end"] = [round(x, 2) for x in machine.load()]
    report.details["command"] = ("python -m bench " + " ".join(sys.argv[1:])).strip()
    report.machine["finished_at"] = datetime.datetime.now(datetime.UTC).strftime(
        "%Y-%m-%d %H:%M UTC"
    )
    print()
    print(report.table())
    report.write_json(args.json)
    print(f"\nwrote {args.json}")
    if args.results:
        text = results.markdown(report, report.details["command"]) + "\n"
        args.results.write_text(text, encoding="utf-8")
        print(f"wrote {args.results}")
    return 1 if report.failures() else 0


if __name__ == "__main__":
    raise SystemExit(main())
