"""A workspace under a fake home, laid out like the seed's Day 14 and Day 15 checks.

<tmp>/home/alice/                 the user's home (never the real one)
<tmp>/home/alice/.ssh/config      a secret outside the workspace
<tmp>/home/alice/work/proj/       the workspace (root)
    README.md, src/a.py, .env, .env.local, config/.env, .git/config, .venv/bin/python,
    outside-link -> <tmp>/outside/secret.txt, broken-link -> missing,
    inner-link -> README.md, innocent -> .env
<tmp>/outside/secret.txt          the neighbouring project's secret
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Layout:
    root: Path
    home: Path
    outside: Path


def make_layout(base: Path) -> Layout:
    home = base / "home" / "alice"
    root = home / "work" / "proj"
    outside = base / "outside"
    for folder in (root / "src", root / "config", root / ".git", root / ".venv" / "bin", outside):
        folder.mkdir(parents=True, exist_ok=True)
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "config").write_text("Host github.com\n  IdentityFile ~/.ssh/id\n")
    (root / "README.md").write_text("# demo\n")
    (root / "src" / "a.py").write_text("print('a')\n")
    (root / ".env").write_text("ANTHROPIC_API_KEY=sk-ant-fake\n")
    (root / ".env.local").write_text("TOKEN=fake\n")
    (root / "config" / ".env").write_text("KEY=fake\n")
    (root / ".git" / "config").write_text("[remote]\n url = https://x/secret/repo\n")
    (root / ".venv" / "bin" / "python").write_text("")
    (outside / "secret.txt").write_text("the neighbour's secret\n")
    (root / "outside-link").symlink_to(outside / "secret.txt")
    (root / "broken-link").symlink_to(root / "missing")
    (root / "inner-link").symlink_to(root / "README.md")
    (root / "innocent").symlink_to(root / ".env")
    return Layout(root.resolve(), home.resolve(), outside.resolve())


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    return make_layout(tmp_path)
