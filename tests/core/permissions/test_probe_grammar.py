"""Probes that try to make the classifier's reading and the program's own grammar disagree
(issue 24 item 1, "look for the same class elsewhere").

Each probe is a command the classifier once allowed because it read the words differently
from the program that runs them; run for real (as written, in the environment given), it
printed a secret or names outside the workspace. Now each one asks. The other side, what the
fixes must not catch, stays allowed.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from kesi_lsp.core.permissions import classify
from tests.core.permissions.conftest import Layout
from tests.core.permissions.gitrepo import git

SECRET = "KEY=grammar-secret"


def run(command: str, root: Path, **env: str) -> str:
    done = subprocess.run(
        command,
        shell=True,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": os.environ["PATH"], "LC_ALL": "C", **env},
    )
    return done.stdout + done.stderr


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose committed `.env` is gone from every commit's tip but tagged: a tag
    of the blob itself (lightweight and annotated)."""
    root = (tmp_path / "repo").resolve()
    root.mkdir()
    git(root, "init", "-q")
    (root / ".env").write_text(SECRET + "\n")
    git(root, "add", "-f", ".env")
    git(root, "commit", "-qm", "one")
    blob = git(root, "rev-parse", "HEAD:.env").strip()
    git(root, "tag", "plain", blob)
    git(root, "tag", "-a", "-m", "note", "annotated", blob)
    git(root, "rm", "-q", "--cached", ".env")
    (root / ".env").unlink()
    (root / "a.txt").write_text("visible\n")
    git(root, "add", "a.txt")
    git(root, "commit", "-qm", "two")
    return root


@pytest.mark.parametrize(
    "command",
    ["git show --all", "git show --tags", "git show --all --stat", "git show --exclude=x --all"],
)
def test_git_show_of_every_ref_asks_when_a_ref_names_a_stored_file(
    repo: Path, command: str
) -> None:
    assert SECRET in run(command, repo)  # git shows the tagged blob itself
    verdict = classify(command, repo, repo.parent)
    assert verdict.kind == "ask"
    assert "names a stored file" in verdict.reason


def test_git_show_of_every_ref_without_such_a_tag_runs(repo: Path) -> None:
    git(repo, "tag", "-d", "plain", "annotated")
    verdict = classify("git show --all", repo, repo.parent)
    assert verdict.kind == "allow" and verdict.command is not None
    assert "visible" in run(verdict.command, repo)


FIND_OUTSIDE = [
    "find -O3 /etc -maxdepth 0",  # GNU's -O level comes before the starting points
    "find -D tree /etc -maxdepth 0",  # and -D takes a word
    "find -P -O1 /etc -maxdepth 0",
]


@pytest.mark.parametrize("command", FIND_OUTSIDE)
def test_find_options_before_the_starting_points(layout: Layout, command: str) -> None:
    assert "/etc" in run(command, layout.root)
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask", verdict.reason


def test_find_starting_points_from_a_file_ask(layout: Layout) -> None:
    (layout.root / "starts").write_bytes(str(layout.home).encode() + b"\0")
    command = "find -files0-from starts -maxdepth 2 -name config"
    assert ".ssh/config" in run(command, layout.root)
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask"
    assert "-files0-from" in verdict.reason


POSIX_ORDER = ["sort README.md -k .env", "grep -h KEY README.md -e .env", "tac README.md -s .env"]


@pytest.mark.parametrize("command", POSIX_ORDER)
def test_option_values_after_an_operand_are_paths_too(layout: Layout, command: str) -> None:
    """With POSIXLY_CORRECT in the environment, GNU tools stop reading options at the first
    operand: `-k .env` after a file is two more files, and `.env` is printed (a file named
    `-k` keeps sort going)."""
    for word in command.split()[2:3]:
        (layout.root / word).write_text("\n")
    assert "sk-ant-fake" in run(command, layout.root, POSIXLY_CORRECT="1")
    verdict = classify(command, layout.root, layout.home)
    assert verdict.kind == "ask"
    assert "closed to the tools" in verdict.reason


@pytest.mark.parametrize("program", ["md5sum", "sha1sum", "sha256sum", "sha512sum"])
def test_checksum_lists_name_files_the_policy_never_sees(layout: Layout, program: str) -> None:
    (layout.root / "sums").write_text(f"{'0' * 32}  .env\n")
    verdict = classify(f"{program} -c sums", layout.root, layout.home)
    assert verdict.kind == "ask"
    assert "-c" in verdict.reason


AGREED = [
    "find . -name '*.py'",
    "find -L src -type f",
    "find -O3 src -name a.py",
    "sort -k 2 README.md",
    "sort -t , -k 2 README.md",
    "grep -e demo README.md",
    "cut -d : -f 1 README.md",
    "sha256sum README.md",
]


@pytest.mark.parametrize("command", AGREED)
def test_the_same_programs_read_as_they_read_stay_allowed(layout: Layout, command: str) -> None:
    assert classify(command, layout.root, layout.home).kind == "allow"
