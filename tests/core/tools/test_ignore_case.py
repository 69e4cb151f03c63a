"""The ignore list without case, through the tools the model calls.

On macOS (APFS by default) and Windows `.ENV` is `.env`, so a fence that compared names with
case would hand the model the user's secrets. Linux keeps `.ENV` a file of its own, and there
it is hidden too: failing closed is the chosen trade-off. Each refusal uses the seed's words,
and nothing on disk changes.
"""

from __future__ import annotations

import pytest

from kesi_lsp.core.tools import ToolResult
from tests.core.workspace import Workspace

SECRET = "API_KEY=sk-secret-CANARY\n"


def _plant(ws: Workspace) -> None:
    ws.write(".ENV", SECRET)
    ws.write(".Env.Local", SECRET)
    ws.write(".Git/config", "[remote]\n\turl = https://token-CANARY@example.com\n")
    ws.write("NODE_MODULES/x/index.js", "module.exports = 'CANARY'\n")
    ws.write("src/app.py", "print('hello')\n")


@pytest.mark.parametrize("path", [".ENV", ".Env.Local", ".Git/config", "NODE_MODULES/x/index.js"])
async def test_read_file_refuses_any_case(ws: Workspace, path: str) -> None:
    _plant(ws)
    result = await ws.call("read_file", file_path=path)
    assert result == ToolResult("Error: this file is not open for reading.", True)


async def test_edit_file_refuses_git_config_in_another_case(ws: Workspace) -> None:
    _plant(ws)
    before = ws.snapshot()
    result = await ws.call(
        "edit_file", file_path=".Git/config", old_string="[remote]", new_string="[core]"
    )
    assert result == ToolResult("Error: this file is not open for editing.", True)
    assert ws.snapshot() == before


@pytest.mark.parametrize("path", ["Node_Modules/x", "NODE_MODULES/x/index.js", ".ENV"])
async def test_write_file_refuses_any_case(ws: Workspace, path: str) -> None:
    _plant(ws)
    before = ws.snapshot()
    result = await ws.call("write_file", file_path=path, content="pwned\n")
    assert result == ToolResult("Error: this path is not open for writing.", True)
    assert ws.snapshot() == before


async def test_grep_neither_enters_nor_finds_them(ws: Workspace) -> None:
    _plant(ws)
    refused = await ws.call("grep", pattern="CANARY", path=".ENV")
    assert refused == ToolResult("Error: this path is not open for searching.", True)
    found = await ws.call("grep", pattern="CANARY|hello")
    assert found == ToolResult("src/app.py:1:print('hello')")


async def test_list_and_glob_do_not_show_them(ws: Workspace) -> None:
    _plant(ws)
    assert await ws.call("list_files") == ToolResult("src/")
    assert await ws.call("glob", pattern="**/*") == ToolResult("src/\nsrc/app.py")
    refused = await ws.call("list_files", path="node_modules")
    assert refused.is_error


async def test_zh_tw_refusal_is_the_seeds(zh: Workspace) -> None:
    _plant(zh)
    result = await zh.call("read_file", file_path=".ENV")
    assert result == ToolResult("錯誤：這個檔案不開放讀取。", True)
