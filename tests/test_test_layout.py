"""The test suite's own layout: what tests share lives in helper modules, not in test modules.

A test module that imports another one runs the other's module-level code, ties the two files'
edits together and hides where a helper lives; pytest may also collect the imported names
twice. Shared fixtures go in a conftest.py, shared helpers in a module whose name does not
start with `test_` (tests/lsp/helpers.py, tests/lsp/reviews.py, tests/core/workspace.py...).
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(TESTS.parent).with_suffix("").parts)


def imported_modules(text: str, module: str) -> set[str]:
    """Every module that the source `text` of `module` imports (relative imports resolved;
    `from a import b` counts `a.b` too, since b may be a module)."""
    package = module.split(".")[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(text, filename=module)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package[: len(package) - (node.level - 1)] if node.level else []
            base = ".".join([*parts, *([node.module] if node.module else [])])
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def is_test_module(name: str) -> bool:
    return name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")


def imported_test_modules(text: str, module: str) -> list[str]:
    return sorted(name for name in imported_modules(text, module) if is_test_module(name))


def test_no_test_module_imports_another_test_module() -> None:
    offenders = {
        str(source.relative_to(TESTS.parent)): found
        for source in sorted(TESTS.rglob("test_*.py"))
        if (found := imported_test_modules(source.read_text(encoding="utf-8"), module_name(source)))
    }
    assert not offenders, (
        "test modules import other test modules; move what they share to a helper module or "
        f"a conftest fixture: {offenders}"
    )


def test_the_check_sees_every_spelling_of_such_an_import() -> None:
    """The check itself can fail: absolute, `from package import module` and relative."""
    spellings = {
        "from tests.lsp.test_e2e import api_env": ["tests.lsp.test_e2e"],
        "import tests.lsp.test_e2e": ["tests.lsp.test_e2e"],
        "from tests.lsp import test_e2e": ["tests.lsp.test_e2e"],
        "from . import test_e2e": ["tests.lsp.test_e2e"],
        "from .test_e2e import api_env": ["tests.lsp.test_e2e"],
        "from ..core.loop.test_faults import x": ["tests.core.loop.test_faults"],
        "from tests.lsp.helpers import api_env": [],
        "from tests.lsp.conftest import BUGGY": [],
    }
    for line, expected in spellings.items():
        assert imported_test_modules(line, "tests.lsp.test_probe") == expected, line
