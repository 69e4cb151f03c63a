"""The demo's sample project reproduces the seed's Day 13 starting point exactly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kesi_lsp.demo.project import BUGGY_LINE, FAILING_TEST, FILES, FIXED_LINE, build


def run_pytest(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.subprocess
def test_sample_starts_red_with_the_seed_failure(tmp_path: Path) -> None:
    project = build(tmp_path / "demo")
    result = run_pytest(project)
    assert result.returncode == 1
    assert "FAILED test_pricing.py::test_discount_at_exactly_1000 - assert 1000 == 900" in (
        result.stdout
    )
    assert f"{FAILING_TEST[0]}:{FAILING_TEST[1]}: AssertionError" in result.stdout
    assert "1 failed, 6 passed" in result.stdout


@pytest.mark.subprocess
def test_the_one_line_fix_turns_it_green(tmp_path: Path) -> None:
    project = build(tmp_path / "demo")
    rules = project / "rules.py"
    text = rules.read_text(encoding="utf-8")
    assert text.count(BUGGY_LINE) == 1
    rules.write_text(text.replace(BUGGY_LINE, FIXED_LINE), encoding="utf-8")
    result = run_pytest(project)
    assert result.returncode == 0, result.stdout
    assert "7 passed" in result.stdout


def test_bug_is_on_line_24_of_rules_as_in_the_seed_hunk() -> None:
    lines = FILES["rules.py"].splitlines(keepends=True)
    assert lines[23] == BUGGY_LINE
    assert lines[20].strip().startswith('"""依消費金額給折扣')
