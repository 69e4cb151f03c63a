"""The sample's own .venv: pytest in it, made offline, usable inside KeSi's sandbox."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import NoSandbox
from kesi_lsp.core.sandbox.selection import select_sandbox
from kesi_lsp.demo.checks import SAMPLE_ENV, run_tests
from kesi_lsp.demo.project import build
from kesi_lsp.demo.sample_venv import closure, make_sample_venv, python_in


def test_the_closure_is_pytest_and_what_it_needs() -> None:
    names = {dist.metadata["Name"].lower() for dist in closure()}
    assert {"pytest", "pluggy", "iniconfig", "packaging"} <= names
    assert "kesi-lsp" not in names and "anthropic" not in names


@pytest.mark.subprocess
def test_the_sample_venv_runs_pytest_and_nothing_of_kesi(tmp_path: Path) -> None:
    project = build(tmp_path / "p")
    python = python_in(make_sample_venv(project))
    assert run_tests(project, python).summary.startswith("1 failed, 6 passed")
    isolated = subprocess.run(
        [str(python), "-c", "import kesi_lsp"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": ""},
        check=False,
    )
    assert isolated.returncode != 0, "the sample's venv is its own, not kesi-lsp's"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="bubblewrap is Linux's")
@pytest.mark.subprocess
def test_inside_the_sandbox_python_means_the_samples_venv(tmp_path: Path) -> None:
    """What KeSi's run_command does with the demo's PATH: the sample's tests run sandboxed."""
    project = build(tmp_path / "p")
    bin_dir = make_sample_venv(project)
    env = {**os.environ, **SAMPLE_ENV, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    sandbox = select_sandbox("auto", project, env)
    if isinstance(sandbox, NoSandbox):
        if os.environ.get("KESI_CI") == "1":
            pytest.fail(f"no working bubblewrap in CI: {sandbox.detail}")
        pytest.skip(f"no working bubblewrap here: {sandbox.detail}")
    done = subprocess.run(
        sandbox.argv("command -v python; python -m pytest -q -p no:cacheprovider", project),
        env=sandbox.environment(env, project),
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.stdout.splitlines()[0] == str(bin_dir / "python"), done.stdout + done.stderr
    assert "1 failed, 6 passed" in done.stdout, done.stdout + done.stderr
