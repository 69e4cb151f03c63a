"""The fast glob walk: counts without holding every match, reads each folder once, any depth."""

from __future__ import annotations

import os
from pathlib import Path
from types import SimpleNamespace

import pytest

from kesi_lsp.core.tools import ToolResult, globbing
from kesi_lsp.core.tools.globbing import BATCH, Matches
from tests.core.workspace import Workspace


def plant(ws: Workspace, count: int, per_folder: int = 100) -> list[str]:
    """`count` empty .txt files, `per_folder` to a folder; their relative paths."""
    made = []
    for i in range(count):
        rel = f"d{i // per_folder:02d}/f{i:05d}.txt"
        ws.write(rel, "")
        made.append(rel)
    return made


@pytest.mark.slow
async def test_many_matches_are_counted_and_the_first_200_shown_in_order(ws: Workspace) -> None:
    made = plant(ws, BATCH + 600)
    ws.write("d00/zz.py", "")
    result = await ws.call("glob", pattern="**/*.txt")
    lines = result.text.split("\n")
    assert lines[:200] == sorted(made)[:200]
    assert lines[200] == f"({len(made)} entries in all; only the first 200 are shown)"
    assert len(lines) == 201


def test_matches_keep_only_the_smallest_whatever_the_order() -> None:
    found = Matches(7, dirs_only=False, dedupe=False)
    names = [f"n{i:05d}" for i in range(3 * BATCH + 5)]
    for name in reversed(names):
        found.add(name, name.endswith("0"))
    assert found.total == len(names)
    assert found.first() == [n + "/" if n.endswith("0") else n for n in names[:7]]
    assert len(found._best) == 7 and not found._batch


async def test_two_double_stars_list_each_path_once(ws: Workspace) -> None:
    for rel in ("a/b/a/b/x.py", "a/x.py", "b/a/a/x.py", "a/b/b/x.py"):
        ws.write(rel, "")
    result = await ws.call("glob", pattern="**/a/**/*.py")
    assert result == ToolResult("a/b/a/b/x.py\na/b/b/x.py\na/x.py\nb/a/a/x.py")
    result = await ws.call("glob", pattern="**/b/**")
    assert result == ToolResult("a/b/\na/b/a/\na/b/a/b/\na/b/b/\nb/\nb/a/\nb/a/a/")


async def test_each_folder_is_read_once(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    """`**/*.py` reads every folder's listing once: the walk and the match share it."""
    plant(ws, 300, per_folder=30)
    ws.write("node_modules/x.py", "")
    scanned: list[str] = []
    real_scandir = os.scandir

    def spy(path: str) -> object:
        scanned.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", spy)
    result = await ws.call("glob", pattern="**/*.py")
    assert result == ToolResult("No accessible file matches **/*.py.")
    folders = [str(ws.root), *(str(ws.root / f"d{i:02d}") for i in range(10))]
    assert sorted(scanned) == sorted(folders)


def nest(root: Path, depth: int) -> None:
    """`depth` folders called `d`, one in the other (mkdir(parents=True) would recurse)."""
    folder = str(root)
    for _ in range(depth):
        folder += "/d"
        Path(folder).mkdir()


def unnest(root: Path, depth: int) -> None:
    """Remove what `nest` made, bottom up (shutil.rmtree, which pytest uses, would recurse)."""
    folder = Path(str(root) + "/d" * depth)
    for child in folder.iterdir():
        child.unlink()
    for _ in range(depth):
        folder.rmdir()
        folder = folder.parent


@pytest.mark.slow
async def test_a_very_deep_tree_is_walked_to_the_bottom(ws: Workspace) -> None:
    """The walk keeps its own stack, so depth is limited by the file system, not by Python."""
    depth = 1100  # deeper than Python's default recursion limit
    deep = Path(*(["d"] * depth))
    nest(ws.root, depth)
    try:
        ws.write((deep / "leaf.txt").as_posix(), "")
        result = await ws.call("glob", pattern="**/leaf.txt")
        assert result == ToolResult(f"{deep.as_posix()}/leaf.txt")
    finally:
        unnest(ws.root, depth)


async def test_a_symlinked_folder_named_in_the_pattern_is_entered_but_not_by_double_star(
    ws: Workspace,
) -> None:
    ws.write("src/pkg/a.py", "")
    (ws.root / "alias").symlink_to(ws.root / "src")
    assert await ws.call("glob", pattern="alias/*/*.py") == ToolResult("alias/pkg/a.py")
    assert await ws.call("glob", pattern="alias/**/*.py") == ToolResult("alias/pkg/a.py")
    assert await ws.call("glob", pattern="**/*.py") == ToolResult("src/pkg/a.py")
    assert await ws.call("glob", pattern="*/") == ToolResult("alias/\nsrc/")


async def test_symlinks_inside_a_symlinked_folder_are_still_fenced(ws: Workspace) -> None:
    ws.write("src/ok.py", "")
    (ws.root / "src" / "out.py").symlink_to(ws.outside / "secret.txt")
    (ws.root / "src" / "env.py").symlink_to(ws.root / ".env")
    ws.write(".env", "S=1\n")
    (ws.root / "alias").symlink_to(ws.root / "src")
    assert await ws.call("glob", pattern="alias/*") == ToolResult("alias/ok.py")
    assert await ws.call("list_files", path="alias") == ToolResult("ok.py")


class FakeEntry:
    """What `leads_elsewhere` reads of an os.DirEntry: a Windows junction is not a symlink."""

    def __init__(self, attributes: int) -> None:
        self.attributes = attributes

    def is_symlink(self) -> bool:
        return False

    def stat(self, *, follow_symlinks: bool = True) -> object:
        assert not follow_symlinks
        return SimpleNamespace(st_file_attributes=self.attributes)


@pytest.mark.parametrize(("attributes", "elsewhere"), [(0x10, False), (0x10 | 0x400, True)])
def test_a_windows_junction_counts_as_leading_elsewhere(
    monkeypatch: pytest.MonkeyPatch, attributes: int, elsewhere: bool
) -> None:
    """Junctions are resolved like symlinks (and `**` never walks into them), as the strict
    walk did by resolving everything."""
    monkeypatch.setattr(globbing.os, "name", "nt")
    assert globbing.leads_elsewhere(FakeEntry(attributes)) is elsewhere  # type: ignore[arg-type]
