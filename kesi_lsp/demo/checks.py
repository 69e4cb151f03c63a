"""What the demo checks by itself, outside the agent: the test state and the diff.

The seed's Day 13 harness prints the starting test state, the ending test state, and the diff
of every original file against the sample, because "驗收要看的是 diff，不是只看 pytest 最後一行":
green tests alone do not prove the fix is right (a deleted test is green too). The failing
test's location also becomes the editor diagnostic the demo asks KeSi to fix, the way an
editor with a test integration would show it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kesi_lsp.core import unified_diff

PYTEST_SECONDS: Final = 120
# The sample needs no pytest plugin; whatever plugins this Python has (KeSi's own test tools,
# when run from its repository) would only slow the runs down and add noise to what KeSi reads.
SAMPLE_ENV: Final = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONDONTWRITEBYTECODE": "1"}
# Written by Python, pytest and the demo itself, never by the agent: not listed as new files.
NOISE: Final = frozenset({"__pycache__", ".pytest_cache", ".venv"})

_SUMMARY = re.compile(r"^=*\s*(?P<summary>(?:\d+ \w+(?:, )?)+) in [\d.]+s", re.MULTILINE)
_LOCATION = re.compile(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+): (?P<error>\w+)$", re.MULTILINE)
_FAILED = re.compile(r"^FAILED (?P<file>[^\s:]+)::(?P<test>\S+)(?: - (?P<message>.*))?$", re.M)


@dataclass(frozen=True)
class Failure:
    """One failing test: where pytest says it failed and what it said."""

    file: str
    line: int  # 1-based
    test: str
    message: str


@dataclass(frozen=True)
class TestState:
    """The outcome of one `python -m pytest -q` in the project."""

    exit_code: int
    summary: str  # pytest's last line, e.g. "1 failed, 6 passed in 0.02s"
    failures: tuple[Failure, ...]
    output: str

    @property
    def green(self) -> bool:
        return self.exit_code == 0


def pytest_available() -> bool:
    """Whether this interpreter can run pytest (the sample project's tests need it)."""
    from importlib.util import find_spec

    return find_spec("pytest") is not None


def run_tests(
    project: Path, python: Path | str = sys.executable, environ: Mapping[str, str] | None = None
) -> TestState:
    """Run the sample's tests: `python -m pytest -q` with `python` (the sample's own venv)."""
    env = {**(os.environ if environ is None else environ), **SAMPLE_ENV}
    done = subprocess.run(
        [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=PYTEST_SECONDS,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    output = done.stdout + done.stderr
    return TestState(done.returncode, last_line(output), parse_failures(output), output)


def last_line(output: str) -> str:
    """pytest's summary line without its `=====` frame (or the last non-empty line)."""
    matches = list(_SUMMARY.finditer(output))
    if matches:
        return matches[-1].group(0).strip("= ")
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def parse_failures(output: str) -> tuple[Failure, ...]:
    """Each `FAILED file::test - message` line, paired with its `file:line: Error` location."""
    locations: dict[str, list[int]] = {}
    for match in _LOCATION.finditer(output):
        locations.setdefault(match["file"], []).append(int(match["line"]))
    failures = []
    for match in _FAILED.finditer(output):
        file = match["file"]
        lines = locations.get(file) or [1]
        line = lines.pop(0) if len(lines) > 1 else lines[0]
        failures.append(Failure(file, line, match["test"], match["message"] or ""))
    return tuple(failures)


@dataclass(frozen=True)
class ProjectDiff:
    """How the project differs from the sample: diffs of original files, and new files."""

    diffs: Mapping[str, str]  # rel -> unified diff (missing files diff to empty)
    new_files: tuple[str, ...]

    @property
    def unchanged(self) -> bool:
        return not self.diffs and not self.new_files

    def text(self) -> str:
        return "".join(self.diffs[rel] for rel in sorted(self.diffs))


def diff_against(project: Path, originals: Mapping[str, str]) -> ProjectDiff:
    """Diff every original file against its sample text, and list files the sample lacks."""
    diffs: dict[str, str] = {}
    for rel, original in originals.items():
        path = project / rel
        now = path.read_bytes().decode("utf-8", "replace") if path.is_file() else ""
        if now != original:
            diffs[rel] = unified_diff(rel, original, now)
    new_files = sorted(
        path.relative_to(project).as_posix()
        for path in project.rglob("*")
        if path.is_file()
        and not NOISE.intersection(path.relative_to(project).parts)
        and path.relative_to(project).as_posix() not in originals
    )
    return ProjectDiff(diffs, tuple(new_files))


def changed_lines(diff: str) -> tuple[list[str], list[str]]:
    """The removed and added lines of a unified diff (file headers excluded)."""
    lines = [line for line in diff.splitlines() if not line.startswith(("--- ", "+++ "))]
    removed = [line[1:] for line in lines if line.startswith("-")]
    added = [line[1:] for line in lines if line.startswith("+")]
    return removed, added
