"""The dependency arrow points inward: kesi_lsp.core never imports the LSP libraries."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "kesi_lsp"
FORBIDDEN_IN_CORE = ("pygls", "lsprotocol", "kesi_lsp.lsp")


def imported_modules(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"), filename=str(source))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


CORE_FILES = sorted((PACKAGE / "core").rglob("*.py"))


@pytest.mark.parametrize("source", CORE_FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_core_module_imports_no_lsp_library(source: Path) -> None:
    bad = {
        name
        for name in imported_modules(source)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN_IN_CORE)
    }
    assert not bad, f"{source} imports {sorted(bad)}"


def test_server_code_never_calls_print() -> None:
    """stdout is the JSON-RPC channel: only the terminal-owning subcommands may print."""
    allowed = {"cli.py", "doctor.py"}
    offenders = []
    for source in PACKAGE.rglob("*.py"):
        if source.name in allowed or "demo" in source.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(source.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "print"
            ):
                offenders.append(f"{source}:{node.lineno}")
    assert not offenders
