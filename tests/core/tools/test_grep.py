"""grep (seed Day 08): ripgrep inside the fence, no match is an answer, output is capped."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

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


async def test_caps_at_100_lines_and_says_there_are_more(zh: Workspace) -> None:
    zh.write("many.txt", "hit\n" * 250)
    result = await zh.call("grep", pattern="hit")
    lines = result.text.split("\n")
    assert len(lines) == 101
    assert lines[0] == "many.txt:1:hit"
    assert lines[99] == "many.txt:100:hit"
    assert lines[100] == "（超過 100 行，只顯示前 100 行）"


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


async def test_exactly_100_lines_are_all_shown_without_a_note(ws: Workspace) -> None:
    ws.write("hundred.txt", "hit\n" * 100)
    result = await ws.call("grep", pattern="hit")
    assert result == ToolResult("\n".join(f"hundred.txt:{n}:hit" for n in range(1, 101)))


async def test_101_lines_say_more_than_100(ws: Workspace) -> None:
    ws.write("many.txt", "hit\n" * 101)
    result = await ws.call("grep", pattern="hit")
    lines = result.text.split("\n")
    assert lines[:100] == [f"many.txt:{n}:hit" for n in range(1, 101)]
    assert lines[100:] == ["(more than 100 lines; only the first 100 are shown)"]
    assert not result.is_error


def fake_rg(folder: Path, body: str) -> str:
    """A stand-in for rg: a shell script that writes its pid(s) to files in `folder`."""
    script = folder / "fake-rg"
    script.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def gone(pid: int) -> bool:
    """The process no longer runs: it does not exist, or it is a zombie nobody of ours owns."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


async def test_rg_is_stopped_once_past_the_cap_and_reaped(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rg (and anything it started) is killed as soon as line 101 arrives, not at the timeout,
    and it is reaped and its pipes are closed: no zombie, no open transport."""
    pids = ws.root.parent
    rg = fake_rg(
        pids,
        f'echo $$ > "{pids}/rg.pid"\n'
        f'sleep 60 & echo $! > "{pids}/child.pid"\n'
        'i=1; while [ $i -le 150 ]; do echo "a.txt:$i:hit"; i=$((i+1)); done\n'
        "wait\n",
    )
    monkeypatch.setattr(grep_module, "find_rg", lambda: rg)
    monkeypatch.setattr(grep_module, "GREP_TIMEOUT", 8.0)
    spawned: list[asyncio.subprocess.Process] = []
    real_spawn = asyncio.create_subprocess_exec

    async def spawn(*argv: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        spawned.append(await real_spawn(*argv, **kwargs))
        return spawned[-1]

    monkeypatch.setattr(grep_module.asyncio, "create_subprocess_exec", spawn)
    ws.write("a.txt", "hit\n")
    started = time.monotonic()
    result = await ws.call("grep", pattern="hit")
    assert time.monotonic() - started < 4
    lines = result.text.split("\n")
    assert lines[:2] == ["a.txt:1:hit", "a.txt:2:hit"]
    assert lines[99:] == ["a.txt:100:hit", "(more than 100 lines; only the first 100 are shown)"]
    assert not result.is_error
    (proc,) = spawned
    assert proc.returncode == -signal.SIGKILL
    with pytest.raises(ProcessLookupError):  # reaped, not a zombie
        os.kill(proc.pid, 0)
    assert proc.stdout is not None and proc.stdout.at_eof()
    assert proc.stderr is not None and proc.stderr.at_eof()
    transport = proc._transport  # type: ignore[attr-defined]
    assert transport.is_closing()
    child = int((pids / "child.pid").read_text(encoding="utf-8"))
    for _ in range(50):
        if gone(child):
            break
        await asyncio.sleep(0.05)
    assert gone(child), "what rg started was killed with it"


async def test_an_early_stop_is_not_mistaken_for_a_failure(
    zh: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """rg killed on purpose has no exit code worth reading; what it printed is the answer."""
    rg = fake_rg(zh.root.parent, "yes 'a.txt:1:hit' | head -n 5000\necho boom >&2\nexit 2\n")
    monkeypatch.setattr(grep_module, "find_rg", lambda: rg)
    zh.write("a.txt", "hit\n")
    result = await zh.call("grep", pattern="hit")
    assert result == ToolResult("a.txt:1:hit\n" * 100 + "（超過 100 行，只顯示前 100 行）")
