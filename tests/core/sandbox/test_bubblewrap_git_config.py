"""Auto-allowed git inside the real bubblewrap sandbox, with a hostile git configuration.

The repository's `.git/config` (as one approved write could leave it) names programs git runs
on plain `git status`/`git diff`/`git log -p`: core.fsmonitor, core.pager, diff.external, a
textconv driver, a clean filter in a `[FILTER "..."]` section, an `include.path` pointing at
a file elsewhere in the workspace (which the sandbox does not blank) with more of them, an
`includeIf`, and a partial clone that would fetch through core.sshCommand. Each program
leaves a marker if it runs. What the policy lets run, run in the sandbox, leaves none, and
still does its job; the same text run as written outside the sandbox leaves markers (so the
test can fail).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify
from kesi_lsp.core.sandbox import NoSandbox
from tests.core.sandbox.conftest import Playground, bubblewrap

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def hostile_repo(root: Path) -> Path:
    """The repository, and the folder where ran-<program> markers appear."""
    marks = root / "marks"
    marks.mkdir()
    script = root / "evil.sh"
    script.write_text(f"#!/bin/sh\ntouch '{marks}/ran-'\"$1\"\nexit 1\n")
    script.chmod(0o755)
    git(root, "init", "-q")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (root / "data.txt").write_text("same size\n")
    git(root, "add", "calc.py", "data.txt")
    git(root, "commit", "-qm", "init")
    (root / ".gitattributes").write_text("*.txt filter=evil diff=evil\n")
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")

    def program(name: str) -> str:
        return f"'{script}' {name}"

    extra = root / "extra.cfg"
    for key, name in (("core.fsmonitor", "include-fsmonitor"), ("filter.inc.clean", "inc")):
        git(root, "config", "-f", str(extra), key, program(name))
    for key, name in (
        ("core.fsmonitor", "fsmonitor"),
        ("core.pager", "pager"),
        ("diff.external", "external"),
        ("diff.evil.textconv", "textconv"),
        ("include.path", "../extra.cfg"),
        ("includeIf.gitdir:/.path", "../extra.cfg"),
    ):
        git(root, "config", key, program(name) if "path" not in key else "../extra.cfg")
    quoted = program("filter").replace("\\", "\\\\").replace('"', '\\"')
    with (root / ".git" / "config").open("a") as config:  # git's own writer lowercases it
        config.write(f'[FILTER "evil"]\n\tclean = "{quoted}"\n')
    stamp = (root / "data.txt").stat().st_mtime + 100
    os.utime(root / "data.txt", (stamp, stamp))  # same size, new time: the filter must run
    return marks


@pytest.mark.slow
async def test_allowed_git_runs_none_of_the_configured_programs(playground: Playground) -> None:
    root = playground.root
    marks = hostile_repo(root)
    box = bubblewrap(playground)
    for command, expected in (
        ("git status", "calc.py"),
        ("git diff", "+    return a + b"),
        ("git log -p", "init"),
        ("git diff --stat && git status -s", "calc.py"),
    ):
        verdict = classify(command, root, playground.home, secrets_masked=True)
        assert verdict.kind == "allow" and verdict.command is not None, verdict.reason
        ran = await playground.run(box, verdict.command)
        assert sorted(p.name for p in marks.iterdir()) == [], (command, ran.output)
        assert expected in ran.output, (command, ran.output)
    await playground.run(NoSandbox(), "git status; git diff")  # control: as written, no box
    assert {p.name for p in marks.iterdir()} & {"ran-fsmonitor", "ran-include-fsmonitor"}


async def test_a_partial_clone_fetches_nothing_in_the_sandbox(playground: Playground) -> None:
    root = playground.root
    marks = hostile_repo(root)
    blob = git(root, "rev-parse", "HEAD:calc.py").strip()
    (root / ".git" / "objects" / blob[:2] / blob[2:]).unlink()
    for key, value in (
        ("core.repositoryformatversion", "1"),
        ("extensions.partialClone", "origin"),
        ("remote.origin.promisor", "true"),
        ("remote.origin.url", "ssh://example.invalid/repo"),
        ("core.sshCommand", f"'{root}/evil.sh' ssh"),
        ("protocol.ssh.allow", "always"),
    ):
        git(root, "config", key, value)
    box = bubblewrap(playground)
    verdict = classify("git show HEAD", root, playground.home, secrets_masked=True)
    assert verdict.command is not None
    await playground.run(box, verdict.command)
    assert sorted(p.name for p in marks.iterdir()) == []
