"""DiskWorkspace: strict UTF-8 reads, reviewed and atomic deliveries on plain disk."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path

import pytest

from kesi_lsp.core import disk
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.disk import DiskWorkspace
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange
from tests.core.approvers import AlwaysAllow, AlwaysDeny, Raising, Scripted
from tests.core.workspace import names


@pytest.fixture
def root(tmp_path: Path) -> Path:
    base = (tmp_path / "ws").resolve()
    base.mkdir()
    return base


async def test_read_is_exact_bytes_decoded(root: Path) -> None:
    (root / "a.txt").write_bytes(b"x\r\ny\rz\n")
    view = DiskWorkspace(root, AlwaysAllow())
    text = await view.read_text(root / "a.txt")
    assert text.text == "x\r\ny\rz\n"
    assert text.version is None
    assert text.unsaved is False
    assert view.unsaved_files() == ()


async def test_read_errors(root: Path) -> None:
    view = DiskWorkspace(root, AlwaysAllow())
    (root / "b.bin").write_bytes(b"\xff\xfe")
    (root / "d").mkdir()
    os.mkfifo(root / "fifo")
    with pytest.raises(UnicodeDecodeError):
        await view.read_text(root / "b.bin")
    with pytest.raises(IsADirectoryError):
        await view.read_text(root / "d")
    with pytest.raises(FileNotFoundError):
        await view.read_text(root / "missing")
    with pytest.raises(OSError):
        await asyncio.wait_for(view.read_text(root / "fifo"), 5)


async def test_reading_happens_off_the_event_loop_thread(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "a.txt").write_text("x", encoding="utf-8")
    threads: list[int] = []
    original = disk.read_utf8

    def spy(path: Path) -> str:
        threads.append(threading.get_ident())
        return original(path)

    monkeypatch.setattr(disk, "read_utf8", spy)
    await DiskWorkspace(root, AlwaysAllow()).read_text(root / "a.txt")
    assert threads and threads[0] != threading.get_ident()


def change(root: Path, rel: str, before: str | None, after: str) -> FileChange:
    return FileChange("write_file", root / rel, rel, before, after)


async def test_create_without_review_asks_nobody(root: Path) -> None:
    approver = AlwaysAllow()
    view = DiskWorkspace(root, approver)
    delivery = await view.deliver(change(root, "n/new.txt", None, "hi\n"), review=False)
    assert delivery == Delivery(DeliveryStatus.APPLIED, Choice.ALLOW_ONCE)
    assert (root / "n" / "new.txt").read_bytes() == b"hi\n"
    assert approver.edits == []


async def test_review_shows_the_diff_and_passes_the_choice(root: Path) -> None:
    approver = Scripted([Choice.ALLOW_SESSION])
    view = DiskWorkspace(root, approver)
    (root / "a.txt").write_text("old\n", encoding="utf-8")
    delivery = await view.deliver(change(root, "a.txt", "old\n", "new\n"), review=True)
    assert delivery.status is DeliveryStatus.APPLIED
    assert delivery.choice is Choice.ALLOW_SESSION
    [request] = approver.edits
    assert request.diff == "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n"
    assert request.path == root / "a.txt"


@pytest.mark.parametrize("approver", [AlwaysDeny(), Raising()])
async def test_denied_or_broken_review_changes_nothing(root: Path, approver: object) -> None:
    view = DiskWorkspace(root, approver)  # type: ignore[arg-type]
    (root / "a.txt").write_text("old\n", encoding="utf-8")
    delivery = await view.deliver(change(root, "a.txt", "old\n", "new\n"), review=True)
    assert delivery.status is DeliveryStatus.REJECTED
    assert (root / "a.txt").read_text(encoding="utf-8") == "old\n"
    delivery = await view.deliver(change(root, "x/y.txt", None, "new\n"), review=True)
    assert delivery.status is DeliveryStatus.REJECTED
    assert names(root) == ["a.txt"]


async def test_create_never_overwrites_an_existing_file(root: Path) -> None:
    (root / "a.txt").write_text("theirs\n", encoding="utf-8")
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "a.txt", None, "mine\n"), review=False
    )
    assert delivery.status is DeliveryStatus.FAILED
    assert delivery.reason == (
        "Error: the file was just created by another program; read it with read_file first, "
        "then decide."
    )
    assert (root / "a.txt").read_text(encoding="utf-8") == "theirs\n"


async def test_create_refuses_a_symlink_placed_at_the_name(root: Path, tmp_path: Path) -> None:
    target = tmp_path / "outside-target.txt"
    (root / "a.txt").symlink_to(target)
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "a.txt", None, "mine\n"), review=False
    )
    assert delivery.status is DeliveryStatus.FAILED
    assert not target.exists()


async def test_parent_swapped_for_a_symlink_after_the_check_is_refused(
    root: Path, tmp_path: Path
) -> None:
    """The fence is checked again after the folders exist (seed Day 10)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (root / "sub").symlink_to(outside)  # appeared between the tool's check and the write
    delivery = await DiskWorkspace(root, AlwaysAllow(), locale="zh-TW").deliver(
        change(root, "sub/x.txt", None, "pwned\n"), review=False
    )
    assert delivery.status is DeliveryStatus.FAILED
    assert delivery.reason == "錯誤：不允許寫入路徑 sub/x.txt"  # the seed's re-check refusal
    assert names(outside) == []


async def test_replace_refuses_when_the_file_moved_on(root: Path) -> None:
    (root / "a.txt").write_text("changed by the user\n", encoding="utf-8")
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "a.txt", "old\n", "new\n"), review=False
    )
    assert delivery == Delivery(
        DeliveryStatus.FAILED,
        Choice.ALLOW_ONCE,
        "Error: the file has changed since it was read; read it again with read_file before "
        "overwriting.",
    )
    assert (root / "a.txt").read_text(encoding="utf-8") == "changed by the user\n"


async def test_replace_of_a_deleted_file_fails(root: Path) -> None:
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "gone.txt", "old\n", "new\n"), review=False
    )
    assert delivery.status is DeliveryStatus.FAILED
    assert delivery.reason == (
        "Error: gone.txt no longer exists; nothing was written. Look again before deciding."
    )
    assert not (root / "gone.txt").exists()


async def test_replace_is_atomic_keeps_mode_and_breaks_hard_links(
    root: Path, tmp_path: Path
) -> None:
    path = root / "a.txt"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o640)
    outside_link = tmp_path / "hardlink.txt"
    os.link(path, outside_link)
    inode = path.stat().st_ino
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "a.txt", "old\n", "new\n"), review=False
    )
    assert delivery.status is DeliveryStatus.APPLIED
    assert path.read_text(encoding="utf-8") == "new\n"
    assert path.stat().st_ino != inode  # a new file was renamed into place
    assert path.stat().st_mode & 0o777 == 0o640
    assert outside_link.read_text(encoding="utf-8") == "old\n"
    assert names(root) == ["a.txt"]


async def test_mkdir_failure_is_reported_and_rolled_back(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_mkdir = Path.mkdir
    calls: list[Path] = []

    def flaky_mkdir(self: Path, *args: object, **kwargs: object) -> None:
        calls.append(self)
        if len(calls) == 2:
            raise OSError(13, "Permission denied")
        real_mkdir(self)

    monkeypatch.setattr(Path, "mkdir", flaky_mkdir)
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "one/two/three.txt", None, "x\n"), review=False
    )
    assert delivery.status is DeliveryStatus.FAILED
    assert delivery.reason == (
        "Error: cannot create the parent folders of one/two/three.txt: Permission denied"
    )
    assert calls == [root / "one", root / "one" / "two"]
    assert names(root) == []  # "one" was created, then removed again


async def test_a_file_in_the_way_of_a_folder(root: Path) -> None:
    (root / "afile").write_text("x", encoding="utf-8")
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "afile/sub/b.txt", None, "x\n"), review=False
    )
    assert delivery.status is DeliveryStatus.FAILED
    assert delivery.reason == (
        "Error: cannot create the parent folders of afile/sub/b.txt: Not a directory"
    )
    assert (root / "afile").read_text(encoding="utf-8") == "x"


async def test_text_that_is_not_utf8_encodable_fails(root: Path) -> None:
    delivery = await DiskWorkspace(root, AlwaysAllow()).deliver(
        change(root, "a.txt", None, "\ud800"), review=False
    )
    assert delivery.status is DeliveryStatus.FAILED
    assert not (root / "a.txt").exists()
