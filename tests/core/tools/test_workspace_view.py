"""The tools against an editor-like workspace view: the buffer is the truth, delivery may fail.

`EditorView` stands in for the LSP adapter: open files have a buffer (maybe unsaved), changes
land in the buffer first and are saved to disk, and the editor can refuse an edit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.core.tools import ToolResult
from kesi_lsp.core.tools.files import text_digest
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange, FileText
from tests.core.workspace import Workspace

BUFFER_CHANGED = "Not applied: a.py changed in the editor meanwhile. Nothing was changed."


def disk_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def save(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@dataclass
class EditorView:
    """Open buffers over the disk view of a workspace."""

    disk: object
    buffers: dict[Path, tuple[str, int]] = field(default_factory=dict)
    delivered: list[tuple[FileChange, bool]] = field(default_factory=list)
    fail_with: str | None = None

    async def read_text(self, path: Path) -> FileText:
        if path in self.buffers:
            text, version = self.buffers[path]
            return FileText(text, version, unsaved=text != disk_text(path))
        return await self.disk.read_text(path)  # type: ignore[attr-defined, no-any-return]

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        self.delivered.append((change, review))
        if self.fail_with is not None:
            return Delivery(DeliveryStatus.FAILED, reason=self.fail_with)
        if change.path in self.buffers:
            text, version = self.buffers[change.path]
            if version != change.version or text != change.before:
                return Delivery(DeliveryStatus.FAILED, reason=BUFFER_CHANGED)
            self.buffers[change.path] = (change.after, version + 1)
        save(change.path, change.after)
        return Delivery(DeliveryStatus.APPLIED)

    def unsaved_files(self) -> tuple[Path, ...]:
        return tuple(p for p, (t, _) in self.buffers.items() if t != disk_text(p))


def editor(ws: Workspace) -> EditorView:
    view = EditorView(ws.view)
    ws.ctx.view = view
    return view


async def test_read_file_returns_unsaved_buffer_text(ws: Workspace) -> None:
    view = editor(ws)
    path = ws.write("a.py", "on disk\n")
    view.buffers[path] = ("typed, not saved\n", 7)
    result = await ws.call("read_file", file_path="a.py")
    assert result == ToolResult("typed, not saved\n")
    assert ws.session.reads[path] == text_digest("typed, not saved\n")


async def test_edit_works_on_the_buffer_and_carries_its_version(ws: Workspace) -> None:
    view = editor(ws)
    path = ws.write("a.py", "x = 1\n")
    view.buffers[path] = ("x = 1\ny = 2\n", 3)
    result = await ws.call("edit_file", file_path="a.py", old_string="y = 2", new_string="y = 3")
    assert result == ToolResult("Replaced (starting at line 2).")
    [(change, review)] = view.delivered
    assert change.before == "x = 1\ny = 2\n"
    assert change.after == "x = 1\ny = 3\n"
    assert change.version == 3
    assert change.rel == "a.py"
    assert review is True
    assert view.buffers[path] == ("x = 1\ny = 3\n", 4)


async def test_typing_in_the_buffer_after_the_read(zh: Workspace) -> None:
    """I4 with an editor: the agent read the buffer, the user typed a line of their own. A
    write_file over it is refused (the sha256 rule); an edit_file of another line lands on the
    buffer as it is now, the user's line included (Day 9)."""
    view = editor(zh)
    path = zh.write("a.py", "count = 1\n")
    view.buffers[path] = ("count = 1\n", 1)
    await zh.call("read_file", file_path="a.py")
    view.buffers[path] = ("count = 1\n# mine\n", 2)
    write = await zh.call("write_file", file_path="a.py", content="count = 2\n")
    assert write == ToolResult("錯誤：檔案在讀取後又有變更，請重新 read_file 後再覆寫。", True)
    assert view.delivered == []
    await zh.call("read_file", file_path="a.py")
    view.buffers[path] = ("count = 1\n# mine\n# and more\n", 3)
    edit = await zh.call("edit_file", file_path="a.py", old_string="count = 1", new_string="c = 2")
    assert edit == ToolResult("替換完成（從第 1 行開始）。")
    [(change, _)] = view.delivered
    assert change.before == "count = 1\n# mine\n# and more\n"
    assert change.after == "c = 2\n# mine\n# and more\n"


async def test_write_compares_against_the_buffer_not_the_disk(ws: Workspace) -> None:
    view = editor(ws)
    path = ws.write("a.py", "disk\n")
    view.buffers[path] = ("buffer\n", 1)
    await ws.call("read_file", file_path="a.py")
    result = await ws.call("write_file", file_path="a.py", content="new\n")
    assert result == ToolResult("Overwrote a.py (4 bytes).")
    [(change, _)] = view.delivered
    assert change.before == "buffer\n"


async def test_a_failed_delivery_passes_the_views_sentence_on(zh: Workspace) -> None:
    view = editor(zh)
    view.fail_with = "沒有套用：編輯器拒絕了 a.py 的修改。什麼都沒有改。"
    zh.write("a.py", "x = 1\n")
    result = await zh.call("edit_file", file_path="a.py", old_string="x = 1", new_string="x = 2")
    assert result == ToolResult("沒有套用：編輯器拒絕了 a.py 的修改。什麼都沒有改。", True)
    assert zh.read("a.py") == b"x = 1\n"
    assert zh.events == []


async def test_a_buffer_that_moved_on_during_delivery_is_reported_as_stale(ws: Workspace) -> None:
    view = editor(ws)
    path = ws.write("a.py", "x = 1\n")
    view.buffers[path] = ("x = 1\n", 1)

    original = view.deliver

    async def user_types_first(change: FileChange, *, review: bool) -> Delivery:
        view.buffers[path] = ("x = 1\n# typed\n", 2)
        return await original(change, review=review)

    view.deliver = user_types_first  # type: ignore[method-assign]
    result = await ws.call("edit_file", file_path="a.py", old_string="x = 1", new_string="x = 2")
    assert result == ToolResult(BUFFER_CHANGED, True)
    assert view.buffers[path] == ("x = 1\n# typed\n", 2)
    assert path not in ws.session.reads  # whatever was read before is not the text any more
