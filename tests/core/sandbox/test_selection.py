"""Choosing the sandbox and telling the truth about it (no bwrap needed for most of these)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kesi_lsp.core.errors import SandboxUnavailableError
from kesi_lsp.core.sandbox import NoSandbox
from kesi_lsp.core.sandbox.bubblewrap import BubblewrapSandbox, parse_version
from kesi_lsp.core.sandbox.seatbelt import SeatbeltSandbox
from kesi_lsp.core.sandbox.selection import (
    SandboxState,
    describe,
    prompt_lines,
    select_sandbox,
    status_line,
    workspace_is_void,
)

NO_TOOLS = {"PATH": "/nonexistent", "HOME": "/nonexistent-home"}


def test_off_means_no_sandbox_and_says_it_is_the_setting(tmp_path: Path) -> None:
    sandbox = select_sandbox("off", tmp_path, NO_TOOLS)
    assert sandbox == NoSandbox("setting")
    state = describe(sandbox, tmp_path, NO_TOOLS)
    assert status_line(state, "zh-TW") == "指令沙箱：關閉（設定 kesi.sandbox = off）"
    assert prompt_lines(state, "zh-TW") == [
        "指令沙箱：沒有開啟。shell 指令會用使用者的權限直接執行，"
        "讀寫範圍跟網路都沒有額外限制，動手前請格外小心。"
    ]


def test_auto_without_any_sandbox_runs_unsandboxed_and_says_so(tmp_path: Path) -> None:
    sandbox = select_sandbox("auto", tmp_path, NO_TOOLS, platform="linux")
    assert sandbox == NoSandbox("unavailable", "linux")
    line = status_line(describe(sandbox, tmp_path, NO_TOOLS), "zh-TW")
    assert line == "指令沙箱：沒有可用的沙箱（linux），指令會直接在你的帳號下執行"
    other = select_sandbox("auto", tmp_path, NO_TOOLS, platform="win32")
    assert other == NoSandbox("unavailable", "win32")


def test_required_but_missing_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SandboxUnavailableError, match="bwrap was not found on PATH") as caught:
        select_sandbox("bubblewrap", tmp_path, NO_TOOLS, platform="linux")
    assert "apt install bubblewrap" in str(caught.value)
    with pytest.raises(SandboxUnavailableError, match="only exists on macOS"):
        select_sandbox("seatbelt", tmp_path, NO_TOOLS, platform="linux")
    with pytest.raises(SandboxUnavailableError, match="only exists on Linux"):
        select_sandbox("bubblewrap", tmp_path, NO_TOOLS, platform="darwin")
    with pytest.raises(SandboxUnavailableError, match="找不到 sandbox-exec"):
        select_sandbox("seatbelt", tmp_path, NO_TOOLS, platform="darwin", locale="zh-TW")


def test_a_bwrap_that_cannot_build_a_sandbox_is_found_out_at_selection(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    bwrap = fake / "bwrap"
    bwrap.write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n"
    )
    bwrap.chmod(0o755)
    environ = {"PATH": str(fake), "HOME": str(tmp_path)}
    sandbox = select_sandbox("auto", tmp_path, environ, platform="linux")
    assert sandbox == NoSandbox(
        "unavailable", "bwrap: bwrap: No permissions to create new namespace"
    )
    with pytest.raises(SandboxUnavailableError, match="No permissions to create new namespace"):
        select_sandbox("bubblewrap", tmp_path, environ, platform="linux")


def _counting_bwrap(folder: Path, *, works: bool) -> Path:
    """A bwrap that notes each sandbox it is asked to start, and starts it or fails."""
    folder.mkdir()
    log = folder / "started"
    ending = "exit 0" if works else "echo 'bwrap: No permissions' >&2; exit 1"
    script = (
        '#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 0.8.0"; exit 0; }\n'
        f'echo started >> "{log}"\n{ending}\n'
    )
    (folder / "bwrap").write_text(script)
    (folder / "bwrap").chmod(0o755)
    return log


def test_a_bwrap_that_worked_is_not_probed_again_for_the_next_folder(tmp_path: Path) -> None:
    log = _counting_bwrap(tmp_path / "bin", works=True)
    environ = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path)}
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        sandbox = select_sandbox("bubblewrap", tmp_path / folder, environ, platform="linux")
        assert isinstance(sandbox, BubblewrapSandbox)
    assert log.read_text().splitlines() == ["started"]


def test_a_bwrap_that_failed_is_probed_again(tmp_path: Path) -> None:
    log = _counting_bwrap(tmp_path / "bin", works=False)
    environ = {"PATH": str(tmp_path / "bin"), "HOME": str(tmp_path)}
    for _ in range(2):
        sandbox = select_sandbox("auto", tmp_path, environ, platform="linux")
        assert sandbox == NoSandbox("unavailable", "bwrap: bwrap: No permissions")
    assert log.read_text().splitlines() == ["started", "started"]


def test_seatbelt_is_chosen_on_macos(tmp_path: Path) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "sandbox-exec").write_text("#!/bin/sh\n")
    (fake / "sandbox-exec").chmod(0o755)
    environ = {"PATH": str(fake), "HOME": str(tmp_path / "home"), "TMPDIR": str(tmp_path)}
    sandbox = select_sandbox("auto", tmp_path, environ, platform="darwin")
    assert isinstance(sandbox, SeatbeltSandbox)
    state = describe(sandbox, tmp_path / "work", environ)
    assert status_line(state, "zh-TW") == f"指令沙箱：開啟（{fake / 'sandbox-exec'}）"
    first, hint = prompt_lines(state, "zh-TW")
    assert first.startswith("指令沙箱：開啟。shell 指令讀不到工作目錄以外的使用者資料")
    assert hint.startswith("shell 指令出現 Operation not permitted、Could not resolve host")


def test_the_workspace_at_home_or_above_voids_the_fence(tmp_path: Path) -> None:
    home = tmp_path / "home" / "alice"
    home.mkdir(parents=True)
    assert workspace_is_void(home, home)
    assert workspace_is_void(tmp_path, home)
    assert not workspace_is_void(home / "proj", home)
    state = SandboxState("bubblewrap", "void", program="/usr/bin/bwrap")
    assert status_line(state, "zh-TW") == (
        "指令沙箱：工作目錄邊界形同虛設：目前目錄是家目錄或它的上層，換一個目錄啟動"
    )
    first, hint = prompt_lines(state, "zh-TW")
    assert "限制讀寫範圍的那一條等於沒有作用" in first and "網路仍然不通" in first
    assert "Permission denied" in hint


def test_a_normal_workspace_is_not_a_false_alarm() -> None:
    state = SandboxState("bubblewrap", "on", program="/usr/bin/bwrap")
    assert status_line(state, "en") == "Command sandbox: on (/usr/bin/bwrap)"
    first, hint = prompt_lines(state, "en")
    assert first.startswith("Command sandbox: on (bubblewrap).")
    assert ".git" in first and "cannot reach the network" in first
    assert "not conclude that something does not exist" in hint


def test_the_hint_about_sandbox_errors_only_when_a_sandbox_is_on() -> None:
    """On an unsandboxed machine "Could not resolve host" really is the network (Day 16)."""
    off = prompt_lines(SandboxState("none", "off", off_reason="unavailable"), "en")
    assert len(off) == 1 and "Could not resolve host" not in off[0]


def test_bwrap_version_parsing() -> None:
    assert parse_version("bubblewrap 0.8.0\n") == (0, 8, 0)
    assert parse_version("bubblewrap 0.11.1") == (0, 11, 1)
    assert parse_version("something else") == (0,)


@pytest.mark.usefixtures("bwrap")
def test_auto_picks_bubblewrap_on_linux_when_it_works(tmp_path: Path) -> None:
    environ = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path / "home")}
    work = tmp_path / "work"
    work.mkdir()
    sandbox = select_sandbox("auto", work, environ, platform="linux")
    assert isinstance(sandbox, BubblewrapSandbox)
    assert sandbox.program == shutil.which("bwrap", path="/usr/bin:/bin")
    assert sandbox.features.version >= (0, 4)
    state = describe(sandbox, work, environ)
    assert (state.kind, state.variant) == ("bubblewrap", "on")
    assert describe(sandbox, tmp_path, environ).variant == "void"  # home is inside it
