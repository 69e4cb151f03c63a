"""grep (seed Day 08): ripgrep inside the fence, no match is an answer, output is capped."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kesi_lsp.core.tools import ToolResult
from kesi_lsp.core.tools import ripgrep as grep_module
from tests.core.workspace import Workspace


async def test_finds_file_line_text(ws: Workspace) -> None:
    ws.write("kesi.py", "def safe_path(path):\n    pass\n\ntarget = safe_path(x)\n")
    ws.write("sub/use.py", "from kesi import safe_path\n")
    result = await ws.call("grep", pattern="safe_path")
    assert result == ToolResult(
        "kesi.py:1:def safe_path(path):\n"
        "kesi.py:4:target = safe_path(x)\n"
        "sub/use.py:1:from kesi import safe_path"
    ) or set(result.text.split("\n")) == {
        "kesi.py:1:def safe_path(path):",
        "kesi.py:4:target = safe_path(x)",
        "sub/use.py:1:from kesi import safe_path",
    }
    assert not result.is_error


async def test_search_limited_to_a_file_or_folder(ws: Workspace) -> None:
    ws.write("a.py", "needle\n")
    ws.write("sub/b.py", "needle\n")
    assert await ws.call("grep", pattern="needle", path="sub") == ToolResult("sub/b.py:1:needle")
    assert await ws.call("grep", pattern="needle", path="a.py") == ToolResult("a.py:1:needle")


async def test_no_match_is_not_an_error(zh: Workspace) -> None:
    zh.write("a.py", "x\n")
    result = await zh.call("grep", pattern="$(whoami)")
    assert result == ToolResult("找不到含有 $(whoami) 的內容。")


async def test_pattern_that_looks_like_an_option_is_data(ws: Workspace) -> None:
    ws.write("a.txt", "use --files here\n")
    result = await ws.call("grep", pattern="--files")
    assert result == ToolResult("a.txt:1:use --files here")


async def test_regex_error_is_reported_with_rgs_own_words(zh: Workspace) -> None:
    zh.write("kesi.py", "def safe_path(): pass\n")
    result = await zh.call("grep", pattern="(?<=def )safe_path")
    assert result.is_error
    assert result.text.startswith("搜尋失敗：")
    assert "look-around" in result.text


async def test_empty_pattern(zh: Workspace) -> None:
    assert await zh.call("grep", pattern="") == ToolResult("錯誤：pattern 不可為空。", True)


@pytest.mark.parametrize("path", ["..", "../outside", "/etc", "missing"])
async def test_outside_or_missing_path(zh: Workspace, path: str) -> None:
    result = await zh.call("grep", pattern="secret", path=path)
    assert result == ToolResult(f"錯誤：找不到或不允許搜尋路徑 {path}", True)


@pytest.mark.parametrize("path", [".env", ".git", "node_modules", "sub/../.env", "src/.env.local"])
async def test_ignored_search_root_is_refused(zh: Workspace, path: str) -> None:
    zh.write(".env", "API_SECRET=fake\n")
    zh.write(".git/config", "API_SECRET=fake\n")
    zh.write("node_modules/x.js", "API_SECRET=fake\n")
    zh.write("src/.env.local", "API_SECRET=fake\n")
    (zh.root / "sub").mkdir()
    result = await zh.call("grep", pattern="API_SECRET", path=path)
    assert result == ToolResult("錯誤：這個路徑不開放搜尋。", True)


async def test_ignored_files_never_match_when_walking(ws: Workspace) -> None:
    for rel in (
        ".env",
        ".env.local",
        ".git/config",
        "node_modules/pkg/index.js",
        "src/node_modules/a.js",
        "__pycache__/x.txt",
        "venv/x.txt",
        ".venv/x.txt",
        ".pytest_cache/x.txt",
        "deep/er/.env.production",
    ):
        ws.write(rel, "API_SECRET=fake-value-for-test\n")
    ws.write("app.py", "print('no secret here')\n")
    result = await ws.call("grep", pattern="API_SECRET")
    assert result == ToolResult("No content contains API_SECRET.")


async def test_gitignore_negation_cannot_expose_ignored(ws: Workspace) -> None:
    """Even a project's own ignore files cannot bring the ignore list back into a search."""
    ws.write(".ignore", "!node_modules\n!.env\n")
    ws.write("node_modules/x.js", "API_SECRET=1\n")
    result = await ws.call("grep", pattern="API_SECRET")
    assert result == ToolResult("No content contains API_SECRET.")


async def test_symlinks_are_not_followed(ws: Workspace) -> None:
    (ws.root / "elsewhere").symlink_to(ws.outside)
    (ws.root / "settings").symlink_to(ws.outside / "secret.txt")
    result = await ws.call("grep", pattern="outside secret")
    assert result == ToolResult("No content contains outside secret.")
    result = await ws.call("grep", pattern="outside secret", path="settings")
    assert result.is_error
    assert "content" not in result.text.split(":")[-1]


async def test_long_lines_are_clipped_at_200_columns(ws: Workspace) -> None:
    ws.write("min.js", "needle" + "x" * 5000 + "\n")
    result = await ws.call("grep", pattern="needle")
    assert len(result.text) < 400
    assert "omitted" in result.text


async def test_caps_at_100_lines_and_says_how_many(zh: Workspace) -> None:
    zh.write("many.txt", "hit\n" * 250)
    result = await zh.call("grep", pattern="hit")
    lines = result.text.split("\n")
    assert len(lines) == 101
    assert lines[0] == "many.txt:1:hit"
    assert lines[99] == "many.txt:100:hit"
    assert lines[100] == "（共有 250 行，只顯示前 100 行）"


async def test_crlf_lines_come_back_without_cr(ws: Workspace) -> None:
    ws.write("w.txt", b"a needle\r\nb\r\n")
    assert await ws.call("grep", pattern="needle") == ToolResult("w.txt:1:a needle")


async def test_invalid_utf8_is_replaced_not_fatal(ws: Workspace) -> None:
    ws.write("latin.txt", b"caf\xe9 needle\n")
    result = await ws.call("grep", pattern="needle")
    assert result == ToolResult("latin.txt:1:caf\ufffd needle")


async def test_missing_rg_is_a_clear_error(zh: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    zh.write("a.py", "x\n")
    monkeypatch.setattr(grep_module, "find_rg", lambda: None)
    result = await zh.call("grep", pattern="x")
    assert result == ToolResult("錯誤：找不到 rg 指令，請先安裝 ripgrep。", True)


async def test_timeout_stops_the_search(ws: Workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    slow = ws.root.parent / "slow-rg"
    slow.write_text("#!/bin/sh\nsleep 30\n", encoding="utf-8")
    slow.chmod(0o755)
    monkeypatch.setattr(grep_module, "find_rg", lambda: str(slow))
    monkeypatch.setattr(grep_module, "GREP_TIMEOUT", 0.5)
    ws.write("a.py", "x\n")
    started = time.monotonic()
    result = await ws.call("grep", pattern="x")
    assert time.monotonic() - started < 5
    assert result == ToolResult(
        "Error: the search was stopped after 0.5 seconds; narrow it down and try again.", True
    )


def test_rg_is_found_next_to_this_python() -> None:
    found = grep_module.find_rg()
    assert found is not None
    assert Path(found).name in ("rg", "rg.exe")
