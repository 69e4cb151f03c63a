"""Fixtures for the ACP adapter's tests: a project with a failing test."""

from __future__ import annotations

from pathlib import Path

import pytest

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A folder with a buggy module and the test that shows it."""
    root = tmp_path / "project"
    root.mkdir()
    (root / "calc.py").write_text(BUGGY, encoding="utf-8")
    (root / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    return root
