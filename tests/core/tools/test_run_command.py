"""run_command (seed Day 11, and Day 12's cancellation): the seed's checks, run for real.

Processes are found by a unique marker in their command line (an odd `sleep` duration) and a
zombie (already dead, waiting to be reaped) does not count as left behind.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path

import pytest

from kesi_lsp.core.approval import Choice
from kesi_lsp.core.sandbox import NoSandbox, SandboxKind
from kesi_lsp.core.tools import ToolResult, run_tool
from tests.core.approvers import AlwaysDeny, Scripted
from tests.core.workspace import Workspace, make_workspace
from tests.processes import gone, processes_with, running

FAKE_KEY = "sk-ant-這是假的測試金鑰"


async def run(ws: Workspace, command: str) -> ToolResult:
    return await ws.call("run_command", command=command)


async def test_echo_and_exit_code_zero(zh: Workspace, ws: Workspace) -> None:
    assert await run(zh, "echo hello") == ToolResult("hello\n（結束碼 0）")
    assert await run(ws, "echo hello") == ToolResult("hello\n(exit code 0)")


async def test_non_zero_exit_is_an_error(zh: Workspace, ws: Workspace) -> None:
    result = await run(zh, "exit 3")
    assert result == ToolResult("（指令沒有輸出）（結束碼 3）", True)
    assert await run(ws, "exit 1") == ToolResult("(no output) (exit code 1)", True)


async def test_stdout_and_stderr_in_pipe_order(zh: Workspace) -> None:
    result = await run(zh, "echo 一; echo 二 >&2; echo 三")
    assert result == ToolResult("一\n二\n三\n（結束碼 0）")


async def test_no_output_is_said_in_words(zh: Workspace) -> None:
    assert await run(zh, "true") == ToolResult("（指令沒有輸出）（結束碼 0）")


async def test_whitespace_output_is_kept(zh: Workspace) -> None:
    result = await run(zh, "printf '   '")
    assert result == ToolResult("   \n（結束碼 0）")


async def test_empty_command_is_refused_without_asking(tmp_path: Path) -> None:
    approver = Scripted([])
    ws = make_workspace(tmp_path, approver, locale="zh-TW")
    assert await run(ws, "   ") == ToolResult("錯誤：command 不可為空。", True)
    assert approver.questions == 0


async def test_cwd_is_the_workspace_and_cd_does_not_persist(ws: Workspace) -> None:
    assert (await run(ws, "pwd")).text.startswith(f"{ws.root}\n")
    assert not (await run(ws, "mkdir -p sub && cd sub && pwd")).is_error
    assert (await run(ws, "pwd")).text.startswith(f"{ws.root}\n")


async def test_credentials_are_not_in_the_childs_environment(tmp_path: Path) -> None:
    environ = {
        "PATH": os.environ.get("PATH", ""),
        "ANTHROPIC_API_KEY": FAKE_KEY,
        "GITHUB_TOKEN": "ghp_fake",
        "db_password": "hunter2",
        "HARMLESS": "visible",
    }
    ws = make_workspace(tmp_path, environ=environ)
    result = await run(ws, "echo [$ANTHROPIC_API_KEY][$GITHUB_TOKEN][$db_password][$HARMLESS]")
    assert result == ToolResult("[][][][visible]\n(exit code 0)")


async def test_no_stdin(zh: Workspace) -> None:
    assert await run(zh, "read x; echo got=[$x]") == ToolResult("got=[]\n（結束碼 0）")


async def test_a_pipe_reports_the_last_status(zh: Workspace) -> None:
    assert await run(zh, "exit 1 | tail -1") == ToolResult("（指令沒有輸出）（結束碼 0）")


async def test_killed_by_a_signal(zh: Workspace) -> None:
    result = await run(zh, "kill -9 $$")
    assert result == ToolResult("（指令沒有輸出）（被訊號 9 終止）（結束碼 -9）", True)


@pytest.mark.slow
async def test_timeout_kills_the_whole_group(zh: Workspace) -> None:
    zh.set_timeout(2)
    started = time.monotonic()
    result = await run(
        zh, "(sleep 3.4242; echo alive > orphan.txt) & echo 背景丟出去了; sleep 30.4242"
    )
    elapsed = time.monotonic() - started
    assert result == ToolResult(
        "背景丟出去了\n（指令超過 2 秒未結束，已終止）（被訊號 15 終止）（結束碼 -15）", True
    )
    assert elapsed < 12
    assert processes_with("3.4242") == []  # sh's background child was stopped too
    assert processes_with("30.4242") == []
    await asyncio.sleep(2)  # past the moment the orphan would have written its file
    assert not (zh.root / "orphan.txt").exists()


async def test_timeout_is_read_at_run_time_and_printed_plainly(ws: Workspace) -> None:
    ws.set_timeout(0.5)
    result = await run(ws, "sleep 5.5151")
    assert result == ToolResult(
        "(no output) (the command did not finish within 0.5 seconds and was terminated) "
        "(killed by signal 15) (exit code -15)",
        True,
    )
    assert processes_with("5.5151") == []


async def test_normal_exit_leaves_no_background_process(zh: Workspace) -> None:
    started = time.monotonic()
    result = await run(zh, "sleep 25.4242 & echo 背景啟動")
    assert result == ToolResult("背景啟動\n（結束碼 0）")
    assert time.monotonic() - started < 3
    assert processes_with("25.4242") == []


@pytest.mark.slow
async def test_sigterm_grace_waits_for_the_whole_group(ws: Workspace) -> None:
    """sh dies on SIGTERM at once, a child ignoring it keeps the group alive: 3 s, then SIGKILL."""
    ws.set_timeout(1)
    started = time.monotonic()
    result = await run(ws, "sh -c 'trap \"\" TERM; sleep 31.4242' & sleep 32.4242")
    elapsed = time.monotonic() - started
    assert result.is_error
    assert "(killed by signal 15)" in result.text
    assert 3.5 < elapsed < 9
    assert processes_with("31.4242") == []
    assert processes_with("32.4242") == []


async def test_output_flood_is_capped_and_stopped(zh: Workspace) -> None:
    started = time.monotonic()
    result = await run(zh, "yes kesi")
    assert time.monotonic() - started < 10
    assert result.is_error
    assert result.text.startswith("kesi\nkesi\n")
    assert "\n（中間省略 992000 bytes）\n" in result.text
    assert result.text.endswith(
        "kesi\n（輸出超過 1000000 bytes，已終止指令）（被訊號 15 終止）（結束碼 -15）"
    )
    assert len(result.text.encode()) < 8200


async def test_long_output_keeps_head_and_tail(ws: Workspace) -> None:
    result = await run(ws, "seq 1 5000")
    assert not result.is_error
    assert result.text.startswith("1\n2\n3\n")
    assert result.text.endswith("4999\n5000\n(exit code 0)")
    assert "bytes omitted in the middle" in result.text


async def test_a_cut_through_a_character_does_not_crash(ws: Workspace) -> None:
    result = await run(ws, "python3 -c \"print('一' * 3000)\" || printf '一%.0s' $(seq 3000)")
    assert "omitted" in result.text
    assert "\ufffd" in result.text or "一" in result.text


async def test_closed_stdout_does_not_end_the_wait(ws: Workspace) -> None:
    started = time.monotonic()
    result = await run(ws, "echo early; exec >&- 2>&-; sleep 1.2121; exit 4")
    assert time.monotonic() - started >= 1.1
    assert result == ToolResult("early\n(exit code 4)", True)


async def test_the_event_loop_keeps_running(ws: Workspace) -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        await run(ws, "sleep 1")
    finally:
        task.cancel()
    assert ticks > 40


async def test_cancelling_the_task_kills_the_group_and_re_raises(ws: Workspace) -> None:
    task = asyncio.create_task(
        run_tool("run_command", {"command": "sleep 33.4242 & sleep 34.4242"}, ws.ctx)
    )
    assert await running("33.4242") and await running("34.4242")
    started = time.monotonic()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert time.monotonic() - started < 4
    assert processes_with("33.4242") == []
    assert processes_with("34.4242") == []


@pytest.mark.parametrize("delay", [0.0, 0.001, 0.005, 0.02])
async def test_cancelling_while_the_shell_starts_leaves_nothing_behind(
    ws: Workspace, delay: float
) -> None:
    """A cancel that lands while the process is being spawned must still kill the whole group.

    asyncio's own clean-up for a cancelled spawn kills only the shell; a background child it
    already started would survive.
    """
    marker = f"35.{int(delay * 1000):04d}1"
    for _ in range(3):
        task = asyncio.create_task(
            run_tool("run_command", {"command": f"sleep {marker} & sleep {marker}"}, ws.ctx)
        )
        await asyncio.sleep(delay)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # Only a living shell can fork: once everything started under the marker is gone, a
        # child that escaped the group's kill would be the one left (it sleeps 35 s).
        assert await gone(marker) == []


async def test_a_refused_command_does_not_run(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, AlwaysDeny(), locale="zh-TW")
    result = await run(ws, "touch ran.txt")
    assert result == ToolResult("錯誤：使用者拒絕執行這個指令。", True)
    assert not (ws.root / "ran.txt").exists()


async def test_allow_for_session_is_asked_once(tmp_path: Path) -> None:
    approver = Scripted([Choice.ALLOW_SESSION])
    ws = make_workspace(tmp_path, approver)
    # `touch` is not on the read-only list, so the classifier asks (echo would be auto-allowed).
    assert not (await run(ws, "touch one.txt")).is_error
    assert not (await run(ws, "touch one.txt")).is_error
    assert len(approver.commands) == 1
    assert approver.unexpected == 0


class RecordingSandbox(NoSandbox):
    """Runs like NoSandbox, remembers what it was asked, and tries to leak a credential."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Path]] = []

    @property
    def kind(self) -> SandboxKind:
        return "none"

    def argv(self, command: str, root: Path) -> list[str]:
        self.calls.append((command, root))
        return super().argv(command, root)

    def environment(self, base: Mapping[str, str], root: Path) -> dict[str, str]:
        return {**super().environment(base, root), "LEAKED_TOKEN": "oops"}


async def test_the_sandbox_seam_launches_and_env_is_scrubbed_again(ws: Workspace) -> None:
    sandbox = RecordingSandbox()
    ws.ctx.sandbox = sandbox
    result = await run(ws, "echo [$LEAKED_TOKEN]")
    assert result == ToolResult("[]\n(exit code 0)")
    assert sandbox.calls == [("echo [$LEAKED_TOKEN]", ws.root)]


class MissingShell(NoSandbox):
    def argv(self, command: str, root: Path) -> list[str]:
        return ["/nonexistent/sh", "-c", command]


async def test_launch_failure_is_an_error_result(zh: Workspace) -> None:
    zh.ctx.sandbox = MissingShell()
    result = await run(zh, "echo hi")
    assert result == ToolResult("錯誤：無法執行指令：No such file or directory", True)


@pytest.mark.subprocess
async def test_red_then_green_with_a_real_test_run(ws: Workspace) -> None:
    ws.write("calc.py", "def add(a, b):\n    return a - b\n")
    ws.write(
        "test_calc.py", "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    )
    pytest_cmd = f"{sys.executable} -m pytest -q -p no:cacheprovider test_calc.py"
    red = await run(ws, pytest_cmd)
    assert red.is_error
    assert "1 failed" in red.text
    assert red.text.endswith("(exit code 1)")
    await ws.call("edit_file", file_path="calc.py", old_string="a - b", new_string="a + b")
    green = await run(ws, pytest_cmd)
    assert not green.is_error
    assert "1 passed" in green.text
    assert green.text.endswith("(exit code 0)")


async def test_documented_hole_without_a_sandbox(zh: Workspace) -> None:
    """Seed Day 11 checks 17-18: the fence guards the file tools, not the shell. Without a
    sandbox (NoSandbox here) `cat` still reads what read_file refuses: the gate and the
    sandbox are what stand in the way, and the user is told so."""
    zh.write(".env", f"ANTHROPIC_API_KEY={FAKE_KEY}\n")
    assert await zh.call("read_file", file_path=".env") == ToolResult(
        "錯誤：這個檔案不開放讀取。", True
    )
    assert "sk-ant-" in (await run(zh, "cat .env")).text
    outside = zh.outside / "secret.txt"
    refused = await zh.call("read_file", file_path=str(outside))
    assert refused == ToolResult(f"錯誤：找不到或不允許存取檔案 {outside}", True)
    assert "outside secret content" in (await run(zh, f"cat {outside}")).text
