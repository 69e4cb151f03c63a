"""The failing project the real-VS-Code tests fix, and what its run looks like when done."""

from __future__ import annotations

import re
from pathlib import Path

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
TEST = """import unittest

from calc import add


class AddTest(unittest.TestCase):
    def test_add(self):
        self.assertEqual(add(2, 3), 5)


if __name__ == "__main__":
    unittest.main()
"""
COMMAND = "python3 -m unittest test_calc"
# Idle: "KeSi $0.0123", or with the last run's verdict "KeSi · verified $0.0123".
COST = re.compile(r"^KeSi (?:· [a-z ]+ )?\$(\d+\.\d{4})$")


def failing_project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "calc.py").write_text(BUGGY)
    (folder / "test_calc.py").write_text(TEST)
    return folder
