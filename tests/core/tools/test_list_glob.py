"""list_files and glob (seed Day 07): one level, patterns, the ignore list, symlinks, caps."""

from __future__ import annotations

import pytest

from kesi_lsp.core.tools import ToolResult
from tests.core.workspace import Workspace


def populate(ws: Workspace) -> None:
    for rel in (
        "kesi.py",
        "README.md",
        ".gitignore",
        ".python-version",
        "examples/a.txt",
        "examples/b.txt",
        "src/pkg/mod.py",
        "src/pkg/test_mod.py",
        ".ruff_cache/x",
        # the ignore list, at several depths
        ".env",
        ".env.example",
        ".git/HEAD",
        "__pycache__/kesi.cpython-311.pyc",
        "node_modules/left-pad/index.js",
        "src/node_modules/deep.py",
        "src/pkg/__pycache__/mod.cpython-311.pyc",
        "src/.venv/lib.py",
        "venv/lib.py",
        ".pytest_cache/v.py",
        "src/.DS_Store",
        "src/pkg/.env.local",
    ):
        ws.write(rel, f"content of {rel}\n")


async def test_list_root_sorted_dirs_with_slash_ignored_hidden(ws: Workspace) -> None:
    populate(ws)
    result = await ws.call("list_files", {})
    assert result == ToolResult(
        "\n".join(
            [
                ".gitignore",
                ".python-version",
                ".ruff_cache/",
                "README.md",
                "examples/",
                "kesi.py",
                "src/",
            ]
        )
    )


async def test_list_subdirectory(ws: Workspace) -> None:
    populate(ws)
    result = await ws.call("list_files", path="src/pkg")
    assert result == ToolResult("mod.py\ntest_mod.py")


async def test_list_empty_says_so(zh: Workspace) -> None:
    (zh.root / "empty").mkdir()
    result = await zh.call("list_files", path="empty")
    assert result == ToolResult("（這個目錄沒有可列出的項目）")


async def test_list_only_ignored_entries_counts_as_empty(ws: Workspace) -> None:
    ws.write("sub/.env", "S=1\n")
    ws.write("sub/node_modules/a.js", "x\n")
    result = await ws.call("list_files", path="sub")
    assert result == ToolResult("(nothing to list in this directory)")


@pytest.mark.parametrize("path", ["..", "../outside", "/", "/etc"])
async def test_list_outside_is_refused(zh: Workspace, path: str) -> None:
    result = await zh.call("list_files", path=path)
    assert result == ToolResult(f"錯誤：找不到或不允許存取目錄 {path}", True)


@pytest.mark.parametrize("path", [".git", "node_modules", "src/node_modules", "sub/../.git"])
async def test_list_ignored_directory_is_refused(zh: Workspace, path: str) -> None:
    populate(zh)
    (zh.root / "sub").mkdir()
    result = await zh.call("list_files", path=path)
    assert result == ToolResult("錯誤：這個目錄不開放讀取。", True)


async def test_list_file_is_not_a_directory(zh: Workspace) -> None:
    zh.write("kesi.py", "x\n")
    result = await zh.call("list_files", path="kesi.py")
    assert result == ToolResult("錯誤：kesi.py 不是一個目錄", True)


async def test_list_hides_symlinks_out_and_into_ignored(ws: Workspace) -> None:
    ws.write(".env", "S=1\n")
    ws.write("ok.txt", "x\n")
    (ws.root / "settings").symlink_to(ws.outside / "secret.txt")
    (ws.root / "elsewhere").symlink_to(ws.outside)
    (ws.root / "config").symlink_to(ws.root / ".env")
    (ws.root / "dangling").symlink_to(ws.root / "missing")
    (ws.root / "alias.txt").symlink_to(ws.root / "ok.txt")
    result = await ws.call("list_files", {})
    assert result == ToolResult("alias.txt\nok.txt")


async def test_list_symlinked_directory_leading_out_is_refused(ws: Workspace) -> None:
    (ws.root / "elsewhere").symlink_to(ws.outside)
    result = await ws.call("list_files", path="elsewhere")
    assert result.is_error
    assert "secret" not in result.text


async def test_list_caps_at_200_and_says_how_many(zh: Workspace) -> None:
    for i in range(205):
        zh.write(f"f{i:03d}.txt", "")
    result = await zh.call("list_files", {})
    lines = result.text.split("\n")
    assert len(lines) == 201
    assert lines[0] == "f000.txt"
    assert lines[199] == "f199.txt"
    assert lines[200] == "（共有 205 筆，只顯示前 200 筆）"
    assert not result.is_error


async def test_glob_python_files_anywhere(ws: Workspace) -> None:
    populate(ws)
    result = await ws.call("glob", pattern="**/*.py")
    assert result == ToolResult("kesi.py\nsrc/pkg/mod.py\nsrc/pkg/test_mod.py")


async def test_glob_this_level_only(ws: Workspace) -> None:
    populate(ws)
    assert await ws.call("glob", pattern="*.py") == ToolResult("kesi.py")
    assert await ws.call("glob", pattern="src/*/test_*.py") == ToolResult("src/pkg/test_mod.py")


async def test_glob_star_lists_dotfiles_but_never_ignored(ws: Workspace) -> None:
    populate(ws)
    result = await ws.call("glob", pattern="*")
    assert result == ToolResult(
        ".gitignore\n.python-version\n.ruff_cache/\nREADME.md\nexamples/\nkesi.py\nsrc/"
    )


async def test_glob_everything_hides_every_ignored_name(ws: Workspace) -> None:
    populate(ws)
    result = await ws.call("glob", pattern="**/*")
    listed = result.text.split("\n")
    for line in listed:
        parts = line.rstrip("/").split("/")
        assert not any(
            p in {".git", "node_modules", "__pycache__", ".venv", "venv", ".env", ".DS_Store"}
            or p == ".pytest_cache"
            or p.startswith(".env.")
            for p in parts
        ), line
    assert "src/pkg/mod.py" in listed
    assert "examples/" in listed


async def test_glob_directories_only_with_trailing_slash(ws: Workspace) -> None:
    populate(ws)
    result = await ws.call("glob", pattern="**/")
    assert result == ToolResult(".ruff_cache/\nexamples/\nsrc/\nsrc/pkg/")


async def test_glob_version_dotdot_filename_is_legal(ws: Workspace) -> None:
    ws.write("version..txt", "1\n")
    assert await ws.call("glob", pattern="version..txt") == ToolResult("version..txt")


@pytest.mark.parametrize(
    "pattern",
    [
        "../**/*",
        "../../etc/*",
        "src/../../*",
        "..\\..\\etc\\*",
        "/etc/*",
        "~/.ssh/*",
        "~",
        "C:\\Windows\\*",
        "C:/x",
        "\\\\server\\share\\*",
    ],
)
async def test_glob_refuses_patterns_that_leave_the_workspace(zh: Workspace, pattern: str) -> None:
    result = await zh.call("glob", pattern=pattern)
    assert result == ToolResult("錯誤：pattern 只能用工作目錄內的相對樣式。", True)


async def test_glob_empty_and_dot(zh: Workspace) -> None:
    assert await zh.call("glob", pattern="  ") == ToolResult("錯誤：pattern 不可為空。", True)
    assert await zh.call("glob", pattern=".") == ToolResult(
        "錯誤：pattern 必須指定要找的檔名樣式。", True
    )


async def test_glob_bad_double_star_is_an_error(ws: Workspace) -> None:
    result = await ws.call("glob", pattern="src/a**b")
    assert result.is_error
    assert result.text.startswith("Error: cannot parse the glob pattern:")


async def test_glob_no_match_is_not_an_error(zh: Workspace) -> None:
    result = await zh.call("glob", pattern="**/*.xlsx")
    assert result == ToolResult("找不到可存取且符合 **/*.xlsx 的檔案。")


async def test_glob_does_not_follow_symlinks_out(ws: Workspace) -> None:
    (ws.root / "elsewhere").symlink_to(ws.outside)
    (ws.root / "settings").symlink_to(ws.outside / "secret.txt")
    ws.write("ok.txt", "x\n")
    for pattern in ("*", "**/*", "elsewhere/*", "**/secret.txt", "*/*"):
        result = await ws.call("glob", pattern=pattern)
        assert not result.is_error
        if result.text.startswith("No accessible file"):
            continue
        assert "secret" not in result.text, pattern
        assert "elsewhere" not in result.text, pattern
        assert "settings" not in result.text, pattern


async def test_glob_does_not_recurse_into_symlinked_dirs(ws: Workspace) -> None:
    ws.write("src/a.py", "x\n")
    (ws.root / "src" / "loop").symlink_to(ws.root / "src")
    result = await ws.call("glob", pattern="**/*.py")
    assert result == ToolResult("src/a.py")


async def test_glob_caps_at_200(ws: Workspace) -> None:
    for i in range(250):
        ws.write(f"d/f{i:03d}.txt", "")
    result = await ws.call("glob", pattern="d/*.txt")
    lines = result.text.split("\n")
    assert len(lines) == 201
    assert lines[-1] == "(250 entries in all; only the first 200 are shown)"


async def test_glob_never_walks_into_ignored_folders(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pruned while walking (seed Day 07's wish): node_modules is not even scanned."""
    from kesi_lsp.core.tools import search

    for i in range(50):
        ws.write(f"node_modules/pkg{i}/index.js", "x\n")
        ws.write(f".git/objects/{i:02x}/obj", "x\n")
    ws.write("src/a.py", "x\n")
    scanned: list[str] = []
    real_scandir = search.os.scandir

    def spy(path: object) -> object:
        scanned.append(str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(search.os, "scandir", spy)
    result = await ws.call("glob", pattern="**/*")
    assert result == ToolResult("src/\nsrc/a.py")
    assert not any("node_modules" in path or ".git" in path for path in scanned)
