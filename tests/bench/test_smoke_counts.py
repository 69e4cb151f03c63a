"""The smoke variant of the benchmarks that count tokens rather than time: they are
deterministic (the scripted API's usage), so they run beside the rest of the suite instead of
alone at its end."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench.smoke import COUNTED, judge


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_every_counting_smoke_benchmark_meets_its_targets(tmp_path: Path) -> None:
    failures = judge(COUNTED, tmp_path)
    assert not failures, "\n".join(failures)
