"""Auto-allowed git never runs a program from git's config, and prints no committed secret.

A real repository whose `.git/config` names programs (core.fsmonitor, diff.external, a textconv
driver, a clean filter, a pager) that would leave a marker file if they ran. The command the
policy lets run is run for real: no marker, and the output is still what the user asked for.
The model's own text, run as written, does leave the markers (so the test can fail).
"""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify

PROGRAMS = {
    "core.fsmonitor": "fsmonitor",
    "diff.external": "external",
    "diff.evil.textconv": "textconv",
    "filter.evil.clean": "clean",
    "core.pager": "pager",
}


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / ".env").write_text("API_KEY=committed-secret\n")
    git(root, "add", "-f", "calc.py", ".env")
    git(root, "commit", "-qm", "init")
    (root / ".gitattributes").write_text("*.py diff=evil filter=evil\n")
    for key, marker in PROGRAMS.items():
        script = root.parent / f"{marker}.sh"
        script.write_text(f"#!/bin/sh\ntouch {root.parent}/ran-{marker}\ncat\n")
        script.chmod(0o755)
        git(root, "config", key, str(script))
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    return root


def run(command: str, root: Path) -> str:
    done = subprocess.run(
        ["/bin/sh", "-c", command], cwd=root, capture_output=True, text=True, timeout=60
    )
    return done.stdout + done.stderr


def markers(root: Path) -> set[str]:
    return {p.name.removeprefix("ran-") for p in root.parent.glob("ran-*")}


@pytest.mark.parametrize(
    "command",
    ["git status", "git diff", "git log -p", "git show HEAD", "git diff --stat && git status -s"],
)
def test_allowed_git_runs_no_configured_program(repo: Path, command: str) -> None:
    verdict = classify(command, repo, repo.parent)
    assert verdict.kind == "allow", verdict.reason
    assert verdict.command is not None and verdict.command != command
    output = run(verdict.command, repo)
    assert markers(repo) == set(), (verdict.command, output)
    assert "committed-secret" not in output
    if "status" in command:
        assert "calc.py" in output
    if command == "git diff":
        assert "+    return a + b" in output


def test_the_same_text_as_written_does_run_them(repo: Path) -> None:
    run("git status && git diff && git log -p", repo)
    assert {"fsmonitor", "external"} <= markers(repo)


def test_filters_are_found_in_included_config_files(repo: Path, tmp_path: Path) -> None:
    extra = tmp_path / "extra.gitconfig"
    extra.write_text('[filter "lfs"]\n\tclean = git-lfs clean -- %f\n')
    git(repo, "config", "include.path", str(extra))
    verdict = classify("git status", repo, repo.parent)
    assert verdict.command is not None
    words = shlex.split(verdict.command)
    assert "filter.lfs.clean=" in words and "filter.evil.clean=" in words
    assert "core.fsmonitor=false" in words and "--no-optional-locks" in words


def test_plain_commands_run_as_written(repo: Path) -> None:
    assert classify("ls -la", repo, repo.parent).command is None
    mixed = classify("ls && git log --oneline", repo, repo.parent).command
    assert mixed is not None and mixed.startswith("ls && git --no-pager")
    assert "--no-ext-diff" in mixed and ":(exclude" not in mixed  # no patch: no exclusions
