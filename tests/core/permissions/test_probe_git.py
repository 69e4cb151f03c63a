"""Hidden-probe checks for read-only git (issue 16, design §3), spellings of our own.

Options git's parser accepts in more spellings than the list had (`-sv`, `--verb`, `--edit`,
`-uX`), `git log` options that show patches without saying `-p` (`-c`, `--cc`, `-m`,
`--binary`, `--raw` blob ids), and `git show <blob id>`, which prints a stored file (a
committed `.env`) without naming its path. The patch cases run for real: the command the
policy lets run prints no committed secret, while the text as written does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify
from tests.core.permissions.conftest import Layout
from tests.core.permissions.gitrepo import git, run

ASKS = [
    "git status --verb",  # a unique prefix of --verbose: prints staged patches
    "git status -sv",
    "git status -vs",
    "git -P status -v",
    "git branch --edit",  # --edit-description: starts the configured editor
    "git branch --edit-desc",
    "git branch --set-up=origin/main",
    "git branch -uorigin/main",
    "git branch --unset-up",
    "git branch -av -d topic",
    "git status --ignore-submodules=none",  # runs every submodule's own git
    "git diff --ignore-submodules=untracked",
    "git --no-pager branch -D topic",
    "git --no-pager -c core.pager=sh log",  # harmless globals, then one that is not
]


@pytest.mark.parametrize("command", ASKS)
def test_asks(layout: Layout, command: str) -> None:
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask", (command, verdict.reason)


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """A repository whose history commits `.env` on a side branch, merged, then changed."""
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "app.py").write_text("print(1)\n")
    git(root, "add", "app.py")
    git(root, "commit", "-qm", "one")
    git(root, "checkout", "-qb", "side")
    (root / ".env").write_text("KEY=committed-secret-1\n")
    git(root, "add", "-f", ".env")
    git(root, "commit", "-qm", "side")
    git(root, "checkout", "-q", "main")
    (root / "app.py").write_text("print(2)\n")
    git(root, "commit", "-qam", "two")
    git(root, "merge", "-q", "--no-edit", "side")
    (root / ".env").write_text("KEY=committed-secret-2\n")
    git(root, "commit", "-qam", "three")
    return root


PATCHES_UNDER_OTHER_NAMES = [
    "git log -c",
    "git log --cc",
    "git log -m -p",
    "git log --binary",
    "git log --patch-with-stat",
    "git log --patch-with-raw",
    "git log --remerge-diff",
    "git log --diff-merges=on",
    "git log -pw",
    "git log -U1",
]


@pytest.mark.parametrize("command", PATCHES_UNDER_OTHER_NAMES)
def test_log_patches_leave_committed_secrets_out(history: Path, command: str) -> None:
    assert "committed-secret" in run(command, history)  # as written, it prints the secret
    verdict = classify(command, history, history.parent)
    assert verdict.kind == "allow" and verdict.command is not None, verdict.reason
    output = run(verdict.command, history)
    assert "committed-secret" not in output and "app.py" in output, output


def test_raw_blob_ids_of_secrets_are_left_out_too(history: Path) -> None:
    verdict = classify("git log --raw", history, history.parent)
    assert verdict.command is not None
    secret_id = git(history, "rev-parse", "--short", "HEAD:.env").strip()
    assert secret_id not in run(verdict.command, history)
    assert "app.py" in run(verdict.command, history)


def test_log_without_patch_options_runs_unchanged(history: Path) -> None:
    """Names-only logs keep their commits: no pathspec is added (it would prune history)."""
    for command in ("git log --oneline --graph", "git log --stat -2", "git log -L1,1:app.py"):
        verdict = classify(command, history, history.parent)
        assert verdict.command is not None and ":(exclude" not in verdict.command, command
        assert "fatal" not in run(verdict.command, history), command


def test_a_blob_id_asks_a_commit_id_does_not(history: Path) -> None:
    blob = git(history, "rev-parse", "HEAD:.env").strip()
    old_blob = git(history, "rev-parse", "HEAD~1:.env").strip()
    commit = git(history, "rev-parse", "HEAD").strip()
    git(history, "tag", "-a", "-m", "x", "secret-tag", blob)
    for command in (
        f"git show {blob}",
        f"git show {blob[:10]}",
        f"git diff {old_blob} {blob}",
        "git show secret-tag",  # a tag that points at the blob
    ):
        assert "committed-secret" in run(command, history)
        verdict = classify(command, history, history.parent)
        assert verdict.kind == "ask", command
        assert "stored file" in verdict.reason
    for command in (f"git show {commit}", f"git show {commit[:8]} --stat", "git show HEAD~2"):
        verdict = classify(command, history, history.parent)
        assert verdict.kind == "allow", (command, verdict.reason)
        assert verdict.command is not None
        assert "committed-secret" not in run(verdict.command, history)
