"""write_file (seed Day 10): create exclusively, overwrite only what was read, atomically."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kesi_lsp.core import disk
from kesi_lsp.core.events import EditApplied
from kesi_lsp.core.tools import ToolResult
from tests.core.approvers import AlwaysAllow, AlwaysDeny
from tests.core.workspace import Workspace, make_workspace, names


async def write(ws: Workspace, path: str, content: str) -> ToolResult:
    return await ws.call("write_file", file_path=path, content=content)


def test_the_lesson_open_w_truncates_before_any_write(tmp_path: Path) -> None:
    """Why write_file exists: `open(..., "w")` empties the file the moment it opens it."""
    victim = tmp_path / "victim.txt"
    victim.write_text("這是本來就有的重要內容\n第二行\n第三行\n", encoding="utf-8")
    with open(victim, "w", encoding="utf-8"):
        pass
    assert victim.read_bytes() == b""


async def test_overwrite_without_read_is_refused(zh: Workspace) -> None:
    zh.write("config.py", "DEBUG = False\n")
    result = await write(zh, "config.py", "DEBUG = True\n")
    assert result == ToolResult("錯誤：覆寫既有檔案前，必須先用 read_file 讀取目前內容。", True)
    assert zh.read("config.py") == b"DEBUG = False\n"


async def test_overwrite_after_read(zh: Workspace) -> None:
    path = zh.write("config.py", "DEBUG = False\n")
    await zh.call("read_file", file_path="config.py")
    result = await write(zh, "config.py", "DEBUG = True\n")
    assert result == ToolResult("已覆寫 config.py（13 bytes）。")
    assert zh.read("config.py") == b"DEBUG = True\n"
    assert path not in zh.session.reads  # the next overwrite needs a new read


async def test_changed_after_read_is_refused(zh: Workspace) -> None:
    path = zh.write("config.py", "DEBUG = False\n")
    await zh.call("read_file", file_path="config.py")
    zh.write("config.py", "DEBUG = False\nEXTRA = 1\n")  # someone else's change
    result = await write(zh, "config.py", "DEBUG = True\n")
    assert result == ToolResult("錯誤：檔案在讀取後又有變更，請重新 read_file 後再覆寫。", True)
    assert zh.read("config.py") == b"DEBUG = False\nEXTRA = 1\n"
    assert path not in zh.session.reads


async def test_new_file_with_parent_folders_counts_utf8_bytes(zh: Workspace) -> None:
    result = await write(zh, "docs/TODO.md", "# 待辦\n")
    assert result == ToolResult("已建立 docs/TODO.md（9 bytes）。")
    assert zh.read("docs/TODO.md") == "# 待辦\n".encode()
    assert zh.session.reads == {}  # creating is not reading
    assert zh.events == [
        EditApplied(
            "write_file",
            "docs/TODO.md",
            "--- /dev/null\n+++ b/docs/TODO.md\n@@ -0,0 +1 @@\n+# 待辦\n",
        )
    ]


async def test_creating_then_overwriting_needs_a_read(ws: Workspace) -> None:
    assert not (await write(ws, "TODO.md", "a\n")).is_error
    assert (await write(ws, "TODO.md", "b\n")).is_error
    await ws.call("read_file", file_path="TODO.md")
    assert await write(ws, "TODO.md", "b\n") == ToolResult("Overwrote TODO.md (2 bytes).")


async def test_identical_content_is_a_no_op(tmp_path: Path) -> None:
    approver = AlwaysAllow()
    ws = make_workspace(tmp_path, approver, locale="zh-TW")
    path = ws.write("same.txt", "x\n")
    before = path.stat()
    await ws.call("read_file", file_path="same.txt")
    assert await write(ws, "same.txt", "x\n") == ToolResult("檔案內容相同，不需要覆寫。")
    assert approver.edits == []
    assert path.stat().st_ino == before.st_ino
    assert ws.events == []


async def test_edit_success_invalidates_the_read(ws: Workspace) -> None:
    ws.write("a.py", "x = 1\n")
    await ws.call("read_file", file_path="a.py")
    await ws.call("edit_file", file_path="a.py", old_string="x = 1", new_string="x = 2")
    result = await write(ws, "a.py", "x = 3\n")
    assert result.is_error
    assert ws.read("a.py") == b"x = 2\n"


async def test_failed_read_invalidates_the_read(ws: Workspace) -> None:
    path = ws.write("a.py", "x = 1\n")
    await ws.call("read_file", file_path="a.py")
    path.write_bytes(b"\xff")
    await ws.call("read_file", file_path="a.py")
    path.write_bytes(b"x = 1\n")  # back to what was read, but the record is gone
    result = await write(ws, "a.py", "x = 3\n")
    assert result.is_error
    assert ws.read("a.py") == b"x = 1\n"


@pytest.mark.parametrize(
    "path",
    [
        ".env",
        ".env.local",
        "sub/../.env",
        ".git/config",
        "node_modules/x.js",
        "src/__pycache__/a.pyc",
        "deep/.venv/x",
        "venv/x",
        ".DS_Store",
        ".pytest_cache/x",
    ],
)
async def test_ignored_paths_cannot_be_written(zh: Workspace, path: str) -> None:
    result = await write(zh, path, "SECRET=1\n")
    assert result == ToolResult("錯誤：這個路徑不開放寫入。", True)
    assert not (zh.root / path).exists()
    assert not (zh.root / "sub").exists()


@pytest.mark.parametrize(
    "path",
    [
        "../outside/new.txt",
        "../outside/secret.txt",
        "/tmp/kesi-absolute.txt",
        "~/kesi.txt",
        "~",
        "C:\\kesi.txt",
        "C:kesi.txt",
        "\\kesi.txt",
        "\\\\server\\share\\kesi.txt",
        ".",
        "",
        "   ",
        "sub/..",
        "a/../../outside/x.txt",
        "bad\x00name.txt",
    ],
)
async def test_paths_outside_or_invalid_are_refused(zh: Workspace, path: str) -> None:
    before = zh.snapshot()
    result = await write(zh, path, "pwned\n")
    assert result == ToolResult(f"錯誤：不允許寫入路徑 {path}", True)
    assert zh.snapshot() == before


async def test_symlink_leading_outside_is_refused(ws: Workspace) -> None:
    (ws.root / "link.txt").symlink_to(ws.outside / "secret.txt")
    (ws.root / "outdir").symlink_to(ws.outside)
    (ws.root / "dangling").symlink_to(ws.outside / "new.txt")
    for path in ("link.txt", "outdir/new.txt", "outdir/secret.txt", "dangling"):
        result = await write(ws, path, "pwned\n")
        assert result.is_error, path
    assert (ws.outside / "secret.txt").read_text(encoding="utf-8") == "outside secret content\n"
    assert not (ws.outside / "new.txt").exists()


async def test_symlink_named_innocently_into_env_is_refused(zh: Workspace) -> None:
    zh.write(".env", "KEY=1\n")
    (zh.root / "settings").symlink_to(zh.root / ".env")
    await zh.call("read_file", file_path="settings")
    result = await write(zh, "settings", "KEY=2\n")
    assert result == ToolResult("錯誤：這個路徑不開放寫入。", True)
    assert zh.read(".env") == b"KEY=1\n"


async def test_directory_cannot_be_overwritten(zh: Workspace) -> None:
    (zh.root / "dir").mkdir()
    result = await write(zh, "dir", "x\n")
    assert result == ToolResult("錯誤：不是可以覆寫的文字檔 dir", True)


async def test_file_mode_is_kept_on_overwrite(ws: Workspace) -> None:
    path = ws.write("run.sh", "echo hi\n")
    path.chmod(0o750)
    await ws.call("read_file", file_path="run.sh")
    await write(ws, "run.sh", "echo hello\n")
    assert path.stat().st_mode & 0o777 == 0o750
    assert names(ws.root) == ["run.sh"]  # no temp file left behind


async def test_rejected_new_file_leaves_no_trace(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, AlwaysDeny(), locale="zh-TW")
    before = ws.snapshot()
    result = await write(ws, "new/deep/file.txt", "x\n")
    assert result == ToolResult("錯誤：使用者拒絕修改這個檔案。", True)
    assert ws.snapshot() == before  # not even the folders


async def test_rejected_overwrite_keeps_the_file_and_the_read(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, AlwaysDeny())
    path = ws.write("a.txt", "old\n")
    await ws.call("read_file", file_path="a.txt")
    assert (await write(ws, "a.txt", "new\n")).is_error
    assert ws.read("a.txt") == b"old\n"
    assert path in ws.session.reads


async def test_a_failing_write_keeps_the_old_content(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The 0-byte lesson, for real: a write that fails half way leaves the old file whole."""
    ws.write("important.txt", "這是本來就有的重要內容\n第二行\n第三行\n")
    await ws.call("read_file", file_path="important.txt")

    def broken_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(disk.os, "fsync", broken_fsync)
    result = await write(ws, "important.txt", "")
    assert result == ToolResult("Error: cannot overwrite the file: Input/output error", True)
    assert ws.read("important.txt") == "這是本來就有的重要內容\n第二行\n第三行\n".encode()
    assert names(ws.root) == ["important.txt"]


async def test_a_failing_create_removes_the_half_file_and_new_folders(
    ws: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken_fsync(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(disk.os, "fsync", broken_fsync)
    before = ws.snapshot()
    result = await write(ws, "a/b/new.txt", "x\n")
    assert result == ToolResult(
        "Error: cannot create file a/b/new.txt: No space left on device", True
    )
    assert ws.snapshot() == before


async def test_a_file_appearing_during_review_is_not_overwritten(tmp_path: Path) -> None:
    class CreatesWhileAsked(AlwaysAllow):
        async def approve_edit(self, request):  # type: ignore[no-untyped-def]
            request.path.write_text("someone else's\n", encoding="utf-8")
            return await super().approve_edit(request)

    ws = make_workspace(tmp_path, CreatesWhileAsked(), locale="zh-TW")
    result = await write(ws, "race.txt", "mine\n")
    assert result == ToolResult("錯誤：檔案剛被其他程式建立，請先用 read_file 讀取後再決定。", True)
    assert ws.read("race.txt") == b"someone else's\n"


async def test_lone_surrogate_content_is_refused(zh: Workspace) -> None:
    result = await write(zh, "a.txt", "\udc80")
    assert result == ToolResult("錯誤：content 含有無法寫成 UTF-8 的內容。", True)
    assert not (zh.root / "a.txt").exists()


async def test_writing_into_a_file_as_folder_fails_cleanly(ws: Workspace) -> None:
    ws.write("a.txt", "x\n")
    result = await write(ws, "a.txt/b.txt", "y\n")
    assert result.is_error
    assert ws.read("a.txt") == b"x\n"


async def test_unicode_names_are_fine(ws: Workspace) -> None:
    result = await write(ws, "文件/說明.md", "內容\n")
    assert result == ToolResult("Created 文件/說明.md (7 bytes).")
    assert (ws.root / "文件" / "說明.md").read_text(encoding="utf-8") == "內容\n"


async def test_new_files_get_the_usual_mode(ws: Workspace) -> None:
    """Exclusive create uses 0o666 minus the umask, as any editor would."""
    umask = os.umask(0o022)
    try:
        await write(ws, "new.txt", "x\n")
    finally:
        os.umask(umask)
    assert (ws.root / "new.txt").stat().st_mode & 0o777 == 0o644
