"""The architecture holds: the arrow points inward, nothing imports in a circle, and the
front ends use only the core's stated surface (design §1)."""

from __future__ import annotations

import ast
import functools
import importlib
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "kesi_lsp"
FORBIDDEN_IN_CORE = ("pygls", "lsprotocol", "kesi_lsp.lsp")


def tree_of(source: Path) -> ast.Module:
    """`source` parsed, once per version of the file (several checks read every module)."""
    return _parsed(source, source.stat().st_mtime_ns)


@functools.lru_cache(maxsize=1024)
def _parsed(source: Path, version: int) -> ast.Module:
    """Parsed, once more if CPython 3.11's AST constructor trips over its recursion counter
    ("AST constructor recursion depth mismatch", CPython gh-106905, fixed in 3.11.8): it
    happens when another thread of the worker compiles at the same moment, and says nothing
    about the file."""
    text = source.read_text(encoding="utf-8")
    try:
        return ast.parse(text, filename=str(source))
    except SystemError:
        return ast.parse(text, filename=str(source))


def imported_modules(source: Path) -> set[str]:
    tree = tree_of(source)
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
        for node in ast.walk(tree_of(source)):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "print"
            ):
                offenders.append(f"{source}:{node.lineno}")
    assert not offenders


def test_only_the_model_client_constructs_the_sdk_client() -> None:
    """The SDK client is built in one place (`core/model/anthropic.py`), which sets its retries,
    timeouts and base URL the same way for every host."""
    allowed = PACKAGE / "core" / "model" / "anthropic.py"
    offenders = []
    for source in PACKAGE.rglob("*.py"):
        if source == allowed:
            continue
        for node in ast.walk(tree_of(source)):
            if isinstance(node, ast.Call):
                name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
                if name in ("Anthropic", "AsyncAnthropic"):
                    offenders.append(f"{source}:{node.lineno}")
    assert offenders == []


# -- no import cycles anywhere in kesi_lsp -------------------------------------------------------


def module_name(source: Path) -> str:
    parts = list(source.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in PACKAGE.rglob("*.py")}


def _owner(name: str, modules: Mapping[str, object]) -> str | None:
    """The module (or package) of kesi_lsp that `name` lives in, if any."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(name: str, source: Path, modules: Mapping[str, object]) -> set[str]:
    """Every kesi_lsp module `source` imports: at the top, inside functions and under
    TYPE_CHECKING alike (`from pkg import sub` counts as importing `pkg.sub`)."""
    tree = tree_of(source)
    package = name if source.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(filter(None, (_owner(a.name, modules) for a in node.names)))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                full = f"{base}.{alias.name}"
                target = full if full in modules else _owner(base, modules)
                if target is not None:
                    found.add(target)
    found.discard(name)
    return found


def import_graph(modules: Mapping[str, Path]) -> dict[str, set[str]]:
    return {name: imports_of(name, source, modules) for name, source in modules.items()}


def cycles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """One import cycle per strongly connected group of modules (Tarjan), each as the path
    `a -> b -> ... -> a`, so a failure names the modules to untangle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [_path_through(graph, group) for group in groups]


def _path_through(graph: Mapping[str, set[str]], group: set[str]) -> list[str]:
    """A shortest cycle from the group's first module back to itself (breadth first)."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & group):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"no cycle through {sorted(group)}")  # pragma: no cover


def test_no_module_of_kesi_lsp_imports_in_a_circle() -> None:
    found = cycles(import_graph(MODULES))
    assert not found, "import cycles:\n" + "\n".join(" -> ".join(c) for c in found)


def test_the_cycle_finder_finds_and_names_a_cycle() -> None:
    """The test above can fail: a circle through three modules is found and spelled out."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set(), "e": {"d"}}
    assert cycles(graph) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_type_checking_and_function_level_imports_count() -> None:
    source = PACKAGE / "core" / "__init__.py"  # lazy exports: TYPE_CHECKING and importlib
    imported = imports_of("kesi_lsp.core", source, MODULES)
    assert {"kesi_lsp.core.session", "kesi_lsp.core.model.anthropic"} <= imported
    cli = imports_of("kesi_lsp.cli", PACKAGE / "cli.py", MODULES)
    assert "kesi_lsp.lsp.app" in cli  # imported inside main()


# -- the core's stated surface ------------------------------------------------------------------

ADAPTERS = ("lsp", "acp", "demo", "testing", "doctor.py", "cli.py")


def adapter_files() -> list[Path]:
    found: list[Path] = []
    for entry in ADAPTERS:
        path = PACKAGE / entry
        found += [path] if path.is_file() else sorted(path.rglob("*.py"))
    return found


def core_imports(source: Path) -> list[tuple[int, str, list[str]]]:
    """Each import of kesi_lsp.core in `source`: line, module and the names taken from it."""
    tree = tree_of(source)
    found: list[tuple[int, str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "kesi_lsp.core" or alias.name.startswith("kesi_lsp.core."):
                    found.append((node.lineno, alias.name, []))
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "kesi_lsp" and any(a.name == "core" for a in node.names):
                found.append((node.lineno, "kesi_lsp", ["core"]))
            elif node.module == "kesi_lsp.core" or node.module.startswith("kesi_lsp.core."):
                found.append((node.lineno, node.module, [a.name for a in node.names]))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.startswith("kesi_lsp.core.")  # importlib.import_module("...")
        ):
            found.append((node.lineno, node.value, []))
    return found


def test_adapters_use_only_the_cores_stated_surface() -> None:
    import kesi_lsp.core as core

    surface = set(core.__all__)
    offenders = []
    for source in adapter_files():
        for line, module, names in core_imports(source):
            where = f"{source.relative_to(PACKAGE.parent)}:{line}"
            if module != "kesi_lsp.core":
                offenders.append(f"{where}: imports {module} (use `from kesi_lsp.core import`)")
            elif unknown := sorted(set(names) - surface):
                offenders.append(f"{where}: {unknown} are not in kesi_lsp.core.__all__")
    assert not offenders, "\n".join(offenders)


def test_the_surface_check_catches_a_private_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text(
        "from kesi_lsp.core.loop import run_agent\n"
        "from kesi_lsp.core import Session\n"
        "import importlib\n"
        'importlib.import_module("kesi_lsp.core.tools.shell")\n',
        encoding="utf-8",
    )
    modules = [module for _, module, _ in core_imports(sneaky)]
    assert modules == ["kesi_lsp.core.loop", "kesi_lsp.core", "kesi_lsp.core.tools.shell"]


def _type_checking_names(tree: ast.Module) -> set[str]:
    block = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    return {
        alias.asname or alias.name
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def test_the_surface_is_stated_once_and_every_name_resolves() -> None:
    """`__all__`, the lazy table and the names mypy sees are the same, and each name is the
    object of the core module the table names."""
    import kesi_lsp.core as core

    exports: dict[str, str] = core._EXPORTS  # type: ignore[attr-defined]
    tree = ast.parse((PACKAGE / "core" / "__init__.py").read_text(encoding="utf-8"))
    assert sorted(core.__all__) == sorted(exports) == sorted(_type_checking_names(tree))
    for name, where in exports.items():
        module, _, attribute = where.partition(":")
        owner = importlib.import_module(f"kesi_lsp.core.{module}")
        assert getattr(core, name) is getattr(owner, attribute or name), name


def test_the_surface_says_nothing_lsp_shaped() -> None:
    """The ACP front end uses the same surface: no LSP word in its names or their modules."""
    import kesi_lsp.core as core

    words = ("lsp", "uri", "pygls", "diagnostic", "textdocument")
    shaped = [name for name in core.__all__ if any(w in name.lower() for w in words)]
    assert not shaped


def test_importing_the_surface_loads_nothing_until_used() -> None:
    """The surface is lazy: a front end pays only for what it takes, and the SDK never loads
    at start-up (an editor waits for the language server's `initialize`)."""
    probe = (
        "import sys, kesi_lsp.core\n"
        "print(sorted(m for m in sys.modules if m.startswith(('kesi_lsp.core.', 'anthropic'))))\n"
        "from kesi_lsp.core import Session, Runs, drive, CoreAgent, Runtime\n"
        "print('anthropic' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    # Only the names' map (`surface.py`, a dict) loads with the package.
    assert done.stdout.splitlines() == ["['kesi_lsp.core.surface']", "False"], done.stdout


def test_adapters_write_files_only_through_the_core() -> None:
    """One atomic write (the core's `write_change`): the adapters never write files their own
    way, which could skip the directory fsync or the "still holds what we read" check."""
    own_ways = {"mkstemp", "write_text", "write_bytes", "NamedTemporaryFile", "rename"}
    offenders = []
    for entry in ("lsp", "acp"):
        for source in sorted((PACKAGE / entry).rglob("*.py")):
            for node in ast.walk(tree_of(source)):
                called = node.func if isinstance(node, ast.Call) else None
                name = getattr(called, "attr", getattr(called, "id", None))
                if name in own_ways or (name == "replace" and "os" in ast.unparse(called)):
                    offenders.append(f"{source.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert not offenders


def test_the_two_adapters_never_import_each_other() -> None:
    """The LSP and ACP adapters share only what is below both (the core, the catalog, stdio
    and logging): neither imports the other, at the top, in a function or for type checking."""
    graph = import_graph(MODULES)
    crossing = [
        f"{name} -> {target}"
        for name, targets in graph.items()
        for target in targets
        for mine, theirs in (("kesi_lsp.acp", "kesi_lsp.lsp"), ("kesi_lsp.lsp", "kesi_lsp.acp"))
        if (name == mine or name.startswith(mine + "."))
        and (target == theirs or target.startswith(theirs + "."))
    ]
    assert not crossing, "\n".join(crossing)
    assert any(name.startswith("kesi_lsp.acp.") for name in graph)  # the check has a subject


MAX_MODULE_LINES = 400
"""Small modules with one job: a module past this has grown a second job to split out."""


def test_no_module_of_kesi_lsp_is_over_400_lines() -> None:
    long = {
        str(path.relative_to(PACKAGE)): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, long
