"""Fixtures for the language-server tests: a project folder and scripted-agent servers."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.lsp.servers import ScriptedAgent

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A workspace folder with one buggy module."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY, encoding="utf-8")
    return root


AgentCommand = Callable[[list[dict[str, Any]]], ScriptedAgent]


@pytest.fixture
def scripted_agent(tmp_path: Path) -> AgentCommand:
    """`scripted_agent(steps)` -> the server choice that runs kesi-lsp with that scripted
    agent (in this process; `Subprocess(scripted_agent(steps))` or `.argv` for a process)."""
    counter = iter(range(1000))

    def agent(steps: list[dict[str, Any]]) -> ScriptedAgent:
        path = tmp_path / f"steps-{next(counter)}.json"
        path.write_text(json.dumps(steps), encoding="utf-8")
        return ScriptedAgent(steps, path)

    return agent
