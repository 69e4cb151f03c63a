"""Running the smoke benchmarks and judging them: a target missed by more than 50% fails.

The benchmarks run as `python -m bench --smoke --only NAME ...` in a subprocess (a fresh
interpreter, the real `kesi-lsp` process, the scripted API in its own process), all of one
kind in one process, as `./dev bench` runs them. Timings on a shared 2-core machine are noisy,
so a benchmark that misses is run again on its own, up to three times in all, and judged by
its best run: a real regression misses every time, a neighbour's burst of CPU rarely does
twice.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.__main__ import BENCHES

REPO = Path(__file__).resolve().parents[2]
MARGIN = 1.5
ATTEMPTS = 3

# They count the scripted API's tokens (deterministic): beside the rest of the suite.
COUNTED = ("tokens", "calibration")
# The others time the server, so they run last, alone on the machine (tests/bench/test_smoke.py).
TIMED = tuple(name for name in BENCHES if name not in COUNTED)
# Run and printed, but with no figure that meets its target yet, so none checked (none now:
# redaction's 1 ms per 100 KB is met and checked since issue 29). The others check something.
PRINTED_ONLY: tuple[str, ...] = ()

Figures = list[dict[str, Any]]


def run(names: Sequence[str], out: Path) -> dict[str, Figures]:
    """The figures of each of `names`, from one `python -m bench --smoke` process."""
    only = [arg for name in names for arg in ("--only", name)]
    done = subprocess.run(
        [sys.executable, "-m", "bench", "--smoke", *only, "--json", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600 * len(names),
        check=False,
    )
    assert out.exists(), (
        f"the benchmarks {list(names)} did not finish:\n{done.stdout}\n{done.stderr}"
    )
    found: dict[str, Figures] = {name: [] for name in names}
    for figure in json.loads(out.read_text())["figures"]:
        found.setdefault(figure["bench"], []).append(figure)
    return found


def missed(figures: Figures) -> list[str]:
    """The CI figures more than MARGIN past their targets, said for a failure message."""
    return [
        f"{f['name']}: {f['value']:.3g} {f['unit']} (target <= {f['limit']:.3g}, {f['baseline']})"
        for f in figures
        if f["ci"] and f["limit"] is not None and not f["value"] <= f["limit"] * MARGIN
    ]


def judge(names: Sequence[str], work: Path) -> list[str]:
    """Run `names`, re-run each that missed on its own; what still missed in every run."""
    misses: dict[str, list[list[str]]] = {name: [] for name in names}
    pending = list(names)
    for attempt in range(ATTEMPTS):
        if not pending:
            break
        results = run(pending, work / f"attempt-{attempt}.json")
        still = []
        for name in pending:
            figures = results[name]
            assert name in PRINTED_ONLY or any(
                f["ci"] and f["limit"] is not None for f in figures
            ), f"{name}: nothing checked"
            if found := missed(figures):
                misses[name].append(found)
                still.append(name)
        pending = still
    return [
        f"{name} missed its targets by more than 50% in {ATTEMPTS} runs:\n"
        + "\n".join(f"run {i + 1}: " + "; ".join(m) for i, m in enumerate(misses[name]))
        for name in pending
    ]
