"""Real work inside the sandbox: git, a virtualenv project with pytest, a git worktree."""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.core.sandbox.conftest import Playground, bubblewrap

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]

PYTEST_DISTRIBUTIONS = ("pytest", "pluggy", "iniconfig", "packaging", "pygments")


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def make_repo(root: Path) -> None:
    git(root, "init", "-q")
    git(root, "remote", "add", "origin", "https://user:tok@example.com/secret/repo.git")
    (root / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    git(root, "add", "calc.py")
    git(root, "commit", "-qm", "init")
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")


def make_venv_project(root: Path) -> None:
    """A project whose tests run with its own `.venv` (made by `python -m venv`), pytest in it.

    pytest and its pure-Python dependencies are copied from this test run's environment into
    the new venv's site-packages, as `pip install` would have put them.
    """
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(root / ".venv")], check=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = root / ".venv" / "lib" / version / "site-packages"
    for name in PYTEST_DISTRIBUTIONS:
        dist = importlib.metadata.distribution(name)
        for file in dist.files or []:
            source = Path(str(dist.locate_file(file)))
            if ".." in file.parts or source.suffix == ".pyc" or not source.is_file():
                continue
            target = site / file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "test_calc.py").write_text(
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    )


async def test_git_works_and_the_repository_stays_untouched(playground: Playground) -> None:
    make_repo(playground.root)
    box = bubblewrap(playground)
    ran = await playground.run(box, "git status --short && git log --oneline && git diff --stat")
    assert ran.code == 0, ran.output
    assert " M calc.py" in ran.output and "init" in ran.output
    ran = await playground.run(box, "git remote -v; cat .git/config; echo end")
    assert "secret/repo" not in ran.output and "tok" not in ran.output
    head = git(playground.root, "rev-parse", "HEAD")
    ran = await playground.run(box, "git commit -qam planted")
    assert ran.code != 0 and "Read-only file system" in ran.output
    ran = await playground.run(box, "echo 'rm -rf ~' > .git/hooks/pre-commit")
    assert ran.code != 0
    assert git(playground.root, "rev-parse", "HEAD") == head
    assert not (playground.root / ".git" / "hooks" / "pre-commit").exists()


async def test_a_git_worktree_works_inside(playground: Playground) -> None:
    main = playground.home / "projects" / "main"
    main.mkdir()
    make_repo(main)
    git(main, "commit", "-qam", "fix")
    git(main, "worktree", "add", "-q", str(playground.root / "wt"), "-b", "topic")
    worktree = playground.root / "wt"
    (worktree / "calc.py").write_text("changed\n")
    environ = {**playground.environ}
    relocated = Playground(playground.home, worktree.resolve(), playground.outside, environ)
    ran = await relocated.run(bubblewrap(relocated), "git status --short; cat ../../main/calc.py")
    assert " M calc.py" in ran.output, ran.output
    assert "return a" not in ran.output  # the main checkout's files stay hidden


@pytest.mark.subprocess
async def test_pytest_runs_with_the_projects_own_venv(playground: Playground) -> None:
    make_venv_project(playground.root)
    box = bubblewrap(playground)
    ran = await playground.run(
        box, ".venv/bin/python -m pytest -q -p no:cacheprovider", seconds=120
    )
    assert ran.code == 0, ran.output
    assert "1 passed" in ran.output
    ran = await playground.run(box, ".venv/bin/python -m pytest -q", seconds=120)
    assert "1 passed" in ran.output and "could not create cache" not in ran.output
    planted = await playground.run(box, "touch .venv/lib/planted.pth")
    assert planted.code != 0 and "Read-only file system" in planted.output
    assert not (playground.root / ".venv" / "lib" / "planted.pth").exists()


async def test_a_venv_made_inside_works_and_is_frozen_from_the_next_command(
    playground: Playground,
) -> None:
    box = bubblewrap(playground)
    made = (
        "python3 -m venv --without-pip fresh && fresh/bin/python -c 'import sys; print(sys.prefix)'"
    )
    ran = await playground.run(box, made, seconds=120)
    assert ran.code == 0, ran.output
    assert ran.output.strip().endswith("/fresh")
    (playground.root / "fresh").rename(playground.root / "venv")  # an ignore-list name
    ran = await playground.run(box, "venv/bin/python -c 'print(42)' && touch venv/x")
    assert ran.output.startswith("42\n") and "Read-only file system" in ran.output
