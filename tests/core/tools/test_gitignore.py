"""list_files and glob leave out what `.gitignore` ignores (seed Day 07's "later"), as grep's
rg does: inside a git repository, every `.gitignore` down to the folder, a deeper one winning,
`.git/info/exclude` too; a line says what was left out; `respectGitignore` turns it off; the
fence's ignore list applies whatever `.gitignore` says."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kesi_lsp.catalog import Locale
from kesi_lsp.core.tools import ToolResult
from tests.core.workspace import Workspace, make_workspace

GITIGNORE = "build/\n*.log\n!keep.log\n.env.local\n!.env\n"


def _repo(tmp_path: Path, locale: Locale = "en") -> Workspace:
    ws = make_workspace(tmp_path, locale=locale)
    (ws.root / ".git" / "info").mkdir(parents=True)
    ws.write(".gitignore", GITIGNORE)
    ws.write("src/app.js", "app\n")
    ws.write("build/app.js", "built\n")
    ws.write("build/deep/more.js", "built\n")
    ws.write("debug.log", "log\n")
    ws.write("keep.log", "kept\n")
    ws.write(".env", "SECRET=1\n")
    ws.write("node_modules/lib/index.js", "lib\n")
    return ws


@pytest.mark.parametrize(
    ("locale", "note"),
    [
        ("en", "(2 more not listed: .gitignore ignores build/, debug.log)"),
        ("zh-TW", "（另有 2 個項目沒有列出：.gitignore 忽略了 build/、debug.log）"),
    ],
)
async def test_list_files_leaves_out_what_gitignore_ignores_and_says_so(
    tmp_path: Path, locale: Locale, note: str
) -> None:
    ws = _repo(tmp_path, locale)
    result = await ws.call("list_files")
    assert result == ToolResult(f".gitignore\nkeep.log\nsrc/\n{note}")


@pytest.mark.parametrize(
    ("locale", "note"),
    [
        ("en", "(Left out because .gitignore ignores them: build/)"),
        ("zh-TW", "（.gitignore 忽略的沒有列出：build/）"),
    ],
)
async def test_glob_does_not_walk_an_ignored_folder(
    tmp_path: Path, locale: Locale, note: str
) -> None:
    ws = _repo(tmp_path, locale)
    assert await ws.call("glob", pattern="**/*.js") == ToolResult(f"src/app.js\n{note}")
    assert (await ws.call("glob", pattern="*.log")).text.splitlines()[0] == "keep.log"


async def test_a_folder_named_outright_is_shown_as_it_is(tmp_path: Path) -> None:
    """Asked for by name, an ignored folder is listed (rg, too, searches a path it is given)."""
    ws = _repo(tmp_path)
    assert await ws.call("list_files", path="build") == ToolResult("app.js\ndeep/")
    assert await ws.call("glob", pattern="build/*.js") == ToolResult("build/app.js")


async def test_a_deeper_gitignore_and_the_repositorys_exclude_file_count(tmp_path: Path) -> None:
    ws = _repo(tmp_path)
    ws.write("src/.gitignore", "!debug.log\n*.gen.js\n")
    ws.write("src/debug.log", "re-included below\n")
    ws.write("src/made.gen.js", "generated\n")
    ws.write(".git/info/exclude", "src/local.js\n")
    ws.write("src/local.js", "mine\n")
    result = await ws.call("list_files", path="src")
    assert result.text.splitlines()[:3] == [".gitignore", "app.js", "debug.log"]
    assert "made.gen.js" not in result.text.splitlines()[:3]
    assert result.text.endswith(".gitignore ignores local.js, made.gen.js)")


async def test_the_setting_turns_it_off_and_the_fence_still_holds(tmp_path: Path) -> None:
    ws = _repo(tmp_path)
    ws.session.settings = replace(ws.session.settings, respect_gitignore=False)
    listed = await ws.call("list_files")
    assert listed == ToolResult(".gitignore\nbuild/\ndebug.log\nkeep.log\nsrc/")  # no .env
    found = await ws.call("glob", pattern="**/*.js")
    assert found == ToolResult("build/app.js\nbuild/deep/more.js\nsrc/app.js")  # no node_modules


async def test_outside_a_git_repository_gitignore_does_not_apply(tmp_path: Path) -> None:
    """As rg: `.gitignore` files count inside a git repository only."""
    ws = _repo(tmp_path)
    (ws.root / ".git" / "info").rmdir()
    (ws.root / ".git").rmdir()
    assert await ws.call("list_files") == ToolResult(
        ".gitignore\nbuild/\ndebug.log\nkeep.log\nsrc/"
    )


async def test_the_repository_may_start_above_the_workspace(tmp_path: Path) -> None:
    """A workspace folder inside a repository: the `.gitignore` files above it apply."""
    ws = _repo(tmp_path)
    ws.write(".gitignore", GITIGNORE + "out/\n")
    inner = make_workspace(ws.root / "src")  # its root is src/ws, two folders below the top
    inner.write("out/x.js", "x\n")
    inner.write("y.js", "y\n")
    assert await inner.call("glob", pattern="**/*.js") == ToolResult(
        "y.js\n(Left out because .gitignore ignores them: out/)"
    )
