"""read_file (seed Days 06, 07, 09, 10): the fence, the ignore list, UTF-8, the read record."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from kesi_lsp.core.tools import ToolResult
from kesi_lsp.core.tools.files import MAX_READ_BYTES
from tests.core.workspace import Workspace, make_workspace


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def test_reads_whole_file_and_records_digest(ws: Workspace) -> None:
    path = ws.write("kesi.py", "print('KeSi')\n")
    result = await ws.call("read_file", file_path="kesi.py")
    assert result == ToolResult("print('KeSi')\n")
    assert ws.session.reads == {path: sha("print('KeSi')\n")}


async def test_crlf_comes_back_untouched(ws: Workspace) -> None:
    ws.write("demo.txt", b"x = 1\r\ny = 2\r\n")
    result = await ws.call("read_file", file_path="demo.txt")
    assert result.text == "x = 1\r\ny = 2\r\n"


async def test_jailbreak_absolute_outside(zh: Workspace) -> None:
    result = await zh.call("read_file", file_path="/etc/passwd")
    assert result == ToolResult("錯誤：找不到或不允許存取檔案 /etc/passwd", True)


async def test_jailbreak_relative_outside(ws: Workspace) -> None:
    result = await ws.call("read_file", file_path="../outside/secret.txt")
    assert result.is_error
    assert "outside secret" not in result.text


async def test_absolute_path_inside_the_workspace_is_fine(ws: Workspace) -> None:
    ws.write("a.txt", "inside\n")
    result = await ws.call("read_file", file_path=str(ws.root / "a.txt"))
    assert result == ToolResult("inside\n")


async def test_missing_file(zh: Workspace) -> None:
    result = await zh.call("read_file", file_path="不存在的檔案.txt")
    assert result == ToolResult("錯誤：找不到或不允許存取檔案 不存在的檔案.txt", True)


async def test_directory_is_not_readable(zh: Workspace) -> None:
    (zh.root / "sub").mkdir()
    for name in (".", "sub"):
        result = await zh.call("read_file", file_path=name)
        assert result == ToolResult(f"錯誤：不是可以讀取的文字檔 {name}", True)
        assert str(zh.root) not in result.text  # no absolute path leaks (Day 06)


async def test_named_pipe_does_not_hang(ws: Workspace) -> None:
    os.mkfifo(ws.root / "pipe")
    result = await ws.call("read_file", file_path="pipe")
    assert result == ToolResult("Error: not a readable text file: pipe", True)


async def test_not_utf8(zh: Workspace) -> None:
    zh.write("big5.txt", "中文".encode("big5"))
    result = await zh.call("read_file", file_path="big5.txt")
    assert result == ToolResult("錯誤：檔案不是 UTF-8 文字檔 big5.txt", True)


@pytest.mark.parametrize(
    "name",
    [
        ".env",
        ".env.local",
        ".env.production",
        ".git/config",
        "node_modules/pkg/index.js",
        "__pycache__/m.cpython-311.pyc",
        ".venv/bin/activate",
        "venv/pyvenv.cfg",
        ".DS_Store",
        ".pytest_cache/README.md",
        "deep/er/.env",
        "deep/node_modules/x.js",
    ],
)
async def test_ignored_files_cannot_be_read(zh: Workspace, name: str) -> None:
    zh.write(name, "ANTHROPIC_API_KEY=sk-ant-fake\n")
    result = await zh.call("read_file", file_path=name)
    assert result == ToolResult("錯誤：這個檔案不開放讀取。", True)
    assert zh.session.reads == {}


async def test_dotdot_into_ignored_is_refused(ws: Workspace) -> None:
    ws.write(".env", "SECRET=1\n")
    (ws.root / "sub").mkdir()
    result = await ws.call("read_file", file_path="sub/../.env")
    assert result == ToolResult("Error: this file is not open for reading.", True)


async def test_symlink_with_innocent_name_to_env_is_refused(ws: Workspace) -> None:
    ws.write(".env", "SECRET=1\n")
    (ws.root / "settings").symlink_to(ws.root / ".env")
    result = await ws.call("read_file", file_path="settings")
    assert result.is_error
    assert "SECRET" not in result.text


async def test_symlink_named_env_is_refused_even_if_harmless(ws: Workspace) -> None:
    ws.write("real.txt", "harmless\n")
    (ws.root / ".env").symlink_to(ws.root / "real.txt")
    result = await ws.call("read_file", file_path=".env")
    assert result == ToolResult("Error: this file is not open for reading.", True)


async def test_symlink_leading_outside_is_refused(ws: Workspace) -> None:
    (ws.root / "settings").symlink_to(ws.outside / "secret.txt")
    result = await ws.call("read_file", file_path="settings")
    assert result == ToolResult("Error: file not found or access not allowed: settings", True)


async def test_symlink_inside_is_followed(ws: Workspace) -> None:
    real = ws.write("src/real.py", "x = 1\n")
    (ws.root / "alias.py").symlink_to(real)
    result = await ws.call("read_file", file_path="alias.py")
    assert result == ToolResult("x = 1\n")
    assert real in ws.session.reads


async def test_failed_read_clears_old_record(ws: Workspace) -> None:
    path = ws.write("config.py", "DEBUG = False\n")
    await ws.call("read_file", file_path="config.py")
    assert path in ws.session.reads
    path.write_bytes(b"\xff\xfe not utf-8")
    result = await ws.call("read_file", file_path="config.py")
    assert result.is_error
    assert path not in ws.session.reads


async def test_missing_file_clears_old_record(ws: Workspace) -> None:
    path = ws.write("gone.py", "x\n")
    await ws.call("read_file", file_path="gone.py")
    path.unlink()
    await ws.call("read_file", file_path="gone.py")
    assert ws.session.reads == {}


async def test_empty_file_says_so(zh: Workspace) -> None:
    path = zh.write("empty.txt", "")
    result = await zh.call("read_file", file_path="empty.txt")
    assert result == ToolResult("（檔案是空的）")
    assert zh.session.reads[path] == sha("")


async def test_a_file_too_large_to_return_whole_comes_back_as_its_first_part(
    ws: Workspace,
) -> None:
    """No more refusal and no pointer at head or sed -n (Day 16): the first part, and how to
    read on (the rest of ranged reads: test_read_ranges.py)."""
    path = ws.write("big.log", "".join(f"line {n} " + "x" * 200 + "\n" for n in range(1, 3001)))
    result = await ws.call("read_file", file_path="big.log")
    assert not result.is_error
    assert result.text.startswith("   1 | line 1 x")
    assert len(result.text.encode()) < MAX_READ_BYTES
    assert "read on with offset=" in result.text
    assert "too large to return at once" in result.text
    assert "head" not in result.text and "sed" not in result.text
    assert path in ws.session.reads


async def test_workspace_living_under_an_ignored_name(tmp_path: Path) -> None:
    """Only the part below the workspace counts: ~/venv/project is a fine workspace."""
    ws = make_workspace(tmp_path / "venv")
    ws.write("src/app.py", "x = 1\n")
    assert await ws.call("read_file", file_path=str(ws.root / "src/app.py")) == ToolResult(
        "x = 1\n"
    )
    assert await ws.call("list_files", path=str(ws.root / "src")) == ToolResult("app.py")
    assert await ws.call("grep", pattern="x", path=str(ws.root)) == ToolResult("src/app.py:1:x = 1")
