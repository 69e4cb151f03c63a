"""The smoke variant of every timed benchmark, in CI: a target missed by more than 50% fails.

They time the server, so `./dev test` runs this file last, alone on the machine
(tests/conftest.py). The benchmarks that only count (tokens) run with the rest of the suite:
tests/bench/test_smoke_counts.py. How they run and are judged: tests/bench/smoke.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.smoke import TIMED, judge


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_every_timed_smoke_benchmark_meets_its_targets(tmp_path: Path) -> None:
    failures = judge(TIMED, tmp_path)
    assert not failures, "\n".join(failures)
