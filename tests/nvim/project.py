"""A small Python project with a failing test, for KeSi to fix in a real editor."""

from __future__ import annotations

from pathlib import Path

CALC_BUGGY = 'def add(a, b):\n    """Return the sum of a and b."""\n    return a - b\n'
CALC_FIXED = 'def add(a, b):\n    """Return the sum of a and b."""\n    return a + b\n'
FAULTY_LINE = 3  # 1-based: "    return a - b"
TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
PYPROJECT = '[project]\nname = "calc"\nversion = "0.1.0"\n'


def failing_project(root: Path) -> Path:
    """Write `calc.py` (add() subtracts), `test_calc.py` (fails) and a pyproject.toml marker."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    (root / "calc.py").write_text(CALC_BUGGY, encoding="utf-8")
    (root / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    return root
