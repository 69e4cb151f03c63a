"""`python -m bench` (or `./dev bench`): run every benchmark, print the table, write JSON."""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from bench import machine
from bench.report import Report

HERE = Path(__file__).resolve().parent


async def _run(names: list[str], report: Report, smoke: bool) -> None:
    from bench import responsiveness, scale, startup, streaming, tokens

    benches = {
        "streaming": streaming.run,
        "responsiveness": responsiveness.run,
        "startup": startup.run,
        "scale": scale.run,
        "tokens": tokens.run,
    }
    for name in names:
        started = time.monotonic()
        print(f"== {name}", flush=True)
        await benches[name](report, smoke=smoke)
        report.seconds[name] = round(time.monotonic() - started, 1)


def main() -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--smoke", action="store_true", help="the fast CI variant")
    parser.add_argument("--only", action="append", help="run only this benchmark (repeatable)")
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args()
    names = args.only or ["tokens", "startup", "streaming", "responsiveness", "scale"]
    report = Report("smoke" if args.smoke else "full", machine.describe())
    started = time.monotonic()
    asyncio.run(_run(names, report, args.smoke))
    report.seconds["total"] = round(time.monotonic() - started, 1)
    report.machine["load_average_at_end"] = [round(x, 2) for x in machine.load()]
    print()
    print(report.table())
    if args.json:
        report.write_json(args.json)
    return 1 if report.failures() else 0


if __name__ == "__main__":
    raise SystemExit(main())
