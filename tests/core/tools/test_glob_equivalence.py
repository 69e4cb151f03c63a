"""The fast walk answers exactly what the strict one did, on generated trees full of symlinks.

list_files and glob resolve only symlinks now (an entry that is not one, in a folder known to be
inside, cannot lead anywhere else). Here both tools are run on random trees against the old
walk that resolved every candidate (`glob_reference.py`), with symlinks of every kind at random
places: out of the workspace, at `/`, at the workspace itself, into ignored places, at
themselves, chained through another symlink, dangling. Results must be identical, byte for byte,
including the order and the count line.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kesi_lsp.core.tools import ToolResult
from kesi_lsp.core.tools.search import capped, compile_pattern
from tests.budget import examples
from tests.core.tools.glob_reference import glob_lines, list_lines
from tests.core.workspace import Workspace, make_workspace

DIRS = ["", "a", "a/b", "src", "src/deep", ".hidden", "node_modules/pkg", "a/.venv"]
NAMES = ["x.py", "y.txt", ".env", ".env.local", "a", "src", "b.py", "深.py", "link", "up"]
KINDS = ["file", "dir", "to-outside-file", "to-outside-dir", "to-slash", "to-root", "to-parent",
         "to-src", "to-file", "to-ignored-dir", "to-ignored-file", "to-self", "dangling",
         "to-link"]  # fmt: skip
SEGMENTS = ["*", "**", "*.py", "?", "[a-s]*", ".*", "a", "b", "src", "deep", "link", "up", "*.txt"]

items = st.lists(
    st.tuples(st.sampled_from(DIRS), st.sampled_from(NAMES), st.sampled_from(KINDS)),
    max_size=14,
)
patterns = st.builds(
    lambda lead, parts, trail: lead + "/".join(parts) + trail,
    st.sampled_from(["", "./"]),
    st.lists(st.sampled_from(SEGMENTS), min_size=1, max_size=4),
    st.sampled_from(["", "/"]),
)


def _target(ws: Workspace, link: Path, kind: str) -> Path:
    return {
        "to-outside-file": ws.outside / "secret.txt",
        "to-outside-dir": ws.outside,
        "to-slash": Path("/"),
        "to-root": ws.root,
        "to-parent": ws.root.parent,
        "to-src": ws.root / "src",
        "to-file": ws.root / "src" / "x.py",
        "to-ignored-dir": ws.root / "node_modules",
        "to-ignored-file": ws.root / ".env",
        "to-self": link,
        "dangling": ws.root / "missing",
        "to-link": ws.root / "link",
    }[kind]


def build(ws: Workspace, planted: list[tuple[str, str, str]]) -> None:
    """A few folders and files that always exist, then the generated entries."""
    for folder in DIRS:
        (ws.root / folder).mkdir(parents=True, exist_ok=True)
    ws.write("src/x.py", "x\n")
    ws.write(".env", "S=1\n")
    ws.write("node_modules/pkg/index.py", "x\n")
    for folder, name, kind in planted:
        path = ws.root / folder / name
        if path.exists() or path.is_symlink():
            continue
        if kind == "file":
            path.write_text("x\n", encoding="utf-8")
        elif kind == "dir":
            path.mkdir()
            (path / "inner.py").write_text("x\n", encoding="utf-8")
        else:
            path.symlink_to(_target(ws, path, kind))


def expected_glob(ws: Workspace, pattern: str) -> ToolResult:
    segments, dirs_only = compile_pattern(pattern, "en")
    lines = glob_lines(ws.root, segments, dirs_only)
    if not lines:
        return ToolResult(f"No accessible file matches {pattern}.")
    return ToolResult(capped(lines, "en"))


def expected_list(ws: Workspace, folder: str) -> ToolResult:
    lines = list_lines(ws.root, (ws.root / folder).resolve())
    return ToolResult(capped(lines, "en") if lines else "(nothing to list in this directory)")


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(planted=items, globs=st.lists(patterns, min_size=1, max_size=6))
def test_glob_and_list_match_the_strict_walk(
    planted: list[tuple[str, str, str]], globs: list[str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ws = make_workspace(Path(tmp).resolve())
        build(ws, planted)

        async def play() -> None:
            for pattern in globs:
                assert await ws.call("glob", pattern=pattern) == expected_glob(ws, pattern)
            for folder in ("", "a", "a/b", "src", "src/deep", ".hidden", "link", "up", "a/link"):
                result = await ws.call("list_files", path=folder or ".")
                if not result.is_error:
                    assert result == expected_list(ws, folder), folder

        asyncio.run(play())
