"""The scripted editor works from a plain install, and meets KeSi's server only on the wire.

`kesi-lsp demo` plays it on a machine where only the package is installed (no test extra), so
neither it nor the demo may load pytest or pytest-lsp; and it imports nothing of KeSi's core,
server or scripted API, so what it checks is what any editor would see.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "kesi_lsp"
OFF_LIMITS = ("kesi_lsp.core", "kesi_lsp.lsp", "kesi_lsp.scripted_api", "pytest", "pytest_lsp")


def _imports(source: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("source", sorted((PACKAGE / "testing").glob("*.py")), ids=lambda p: p.name)
def test_the_scripted_editor_imports_nothing_of_the_server(source: Path) -> None:
    bad = {n for n in _imports(source) if any(n == o or n.startswith(o + ".") for o in OFF_LIMITS)}
    assert not bad, f"{source.name} imports {sorted(bad)}"


@pytest.mark.subprocess
def test_the_demo_and_the_editor_load_without_the_test_tools() -> None:
    probe = (
        "import sys, kesi_lsp.testing, kesi_lsp.demo.run, kesi_lsp.demo.fixing\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in ('pytest', 'pytest_lsp',"
        " '_pytest'))\n"
        "print(loaded)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout
