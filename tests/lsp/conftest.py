"""Fixtures for the language-server tests: a project folder and scripted-agent servers."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A workspace folder with one buggy module."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY, encoding="utf-8")
    return root


AgentCommand = Callable[[list[dict[str, Any]]], list[str]]


@pytest.fixture
def scripted_agent(tmp_path: Path) -> AgentCommand:
    """`scripted_agent(steps)` -> the command that starts kesi-lsp with that scripted agent."""
    counter = iter(range(1000))

    def command(steps: list[dict[str, Any]]) -> list[str]:
        path = tmp_path / f"steps-{next(counter)}.json"
        path.write_text(json.dumps(steps), encoding="utf-8")
        return [sys.executable, "-m", "tests.lsp.scripted_agent", str(path)]

    return command
