"""`DiskWorkspace`: the workspace view for plain disk (tests, the demo, editors without buffers).

Reading is a strict UTF-8 decode of the file's bytes (no newline translation, seed Day 09).
Delivering follows seed Day 10: a new file is created exclusively (a file that appears in the
meantime is never overwritten), an existing file is replaced atomically through a temporary file
in the same folder, flushed to disk, with its permission bits kept, and only if it still holds
the text the change was computed against. File work runs in a thread so the event loop stays
responsive. `write_change` is that write on its own, for every front end that writes a file itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

from kesi_lsp.catalog import DEFAULT_LOCALE, Locale, text
from kesi_lsp.core.approval import Approver
from kesi_lsp.core.delivery import DeliveryPipeline, Drift, Landed, Route, Saved, Shown
from kesi_lsp.core.paths import is_ignored
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange, FileText

Reader = Callable[[Path], str]
"""Reads a file's text; raises OSError (FileNotFoundError when it is gone) or
UnicodeDecodeError."""


def read_utf8(path: Path) -> str:
    """Read a regular file's bytes and decode them strictly as UTF-8.

    Opened non-blocking, so a named pipe cannot hang the agent (seed Day 06); anything but a
    regular file raises IsADirectoryError or OSError.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(f"is a directory: {path.name}")
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"not a regular file: {path.name}")
        return handle.read().decode("utf-8")


class DiskWorkspace:
    """A `WorkspaceView` on the files of `root`, asking `approver` before reviewed changes.

    Its deliveries go through the one pipeline (`kesi_lsp.core.delivery`) over `DiskPort`."""

    def __init__(self, root: Path, approver: Approver, *, locale: Locale = DEFAULT_LOCALE) -> None:
        self.root = root.resolve()
        self._port = DiskPort(self.root, locale)
        self._pipeline = DeliveryPipeline(self._port, approver, locale)

    @property
    def locale(self) -> Locale:
        return self._pipeline.locale

    @locale.setter
    def locale(self, locale: Locale) -> None:
        """The host may change it with the session's settings."""
        self._pipeline.locale = self._port.locale = locale

    async def read_text(self, path: Path) -> FileText:
        return FileText(await asyncio.to_thread(read_utf8, path))

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        return await self._pipeline.deliver(change, review=review)

    def unsaved_files(self) -> tuple[Path, ...]:
        return ()


class DiskPort:
    """The editor port of plain disk: the disk is what the user sees, and the write is the
    apply (so the save finds it there already). Its refusals are the seed's own words."""

    def __init__(self, root: Path, locale: Locale) -> None:
        self.root = root
        self.locale = locale

    async def shown(self, path: Path) -> Shown:
        return Shown(await self.disk(path))

    async def disk(self, path: Path) -> str | None:
        return await asyncio.to_thread(_read_or_none, path)

    def drift(self, path: Path) -> Drift | None:
        return None

    def route(self, change: FileChange) -> Route:
        return Route.ASK

    def reviewing(self, change: FileChange) -> None:
        return None

    async def apply(self, change: FileChange, *, preview: bool) -> Landed | Delivery:
        reason = await self.write(change)
        return Landed() if reason is None else Delivery(DeliveryStatus.FAILED, reason=reason)

    async def save(self, change: FileChange) -> Saved | None:
        return None

    async def write(self, change: FileChange) -> str | None:
        return await asyncio.to_thread(write_change, change, self.root, self.locale)

    def same(self, a: str | None, b: str | None) -> bool:
        return a == b

    def stale(self, change: FileChange, now: str | None, *, reviewed: bool) -> str:
        """The seed's words for a file that moved since it was read (Day 10)."""
        if change.before is None:
            return text("tools.write.raced", self.locale)
        if now is None:
            return text("tools.disk.missing", self.locale, path=change.rel)
        key = "tools.edit.changed_meanwhile" if change.tool == "edit_file" else "tools.write.stale"
        return text(key, self.locale)

    def landed(self, change: FileChange, text: str) -> None:
        return None


def _read_or_none(path: Path) -> str | None:
    try:
        return read_utf8(path)
    except (OSError, UnicodeDecodeError):
        return None


def write_change(
    change: FileChange, root: Path, locale: Locale, *, read: Reader | None = None
) -> str | None:
    """Write `change` to disk the seed's way (Day 10); None when it landed, else the model-facing
    sentence saying why nothing was changed (the seed's own words where the seed has them).

    `change.before` is what the file must still hold (None: it must not exist yet), as `read`
    reads it: the caller's own reader, so the check compares like with like (default
    `read_utf8`). `root` is the workspace, re-checked once the folders of a new file exist.
    Blocking: call it in a worker thread. Every front end's own write goes through here, so
    there is one atomic write.
    """
    return _Writer(root.resolve(), locale, read or read_utf8).apply(change)


class _Writer:
    """One write: the fence it re-checks, how it reads the file, the locale it speaks."""

    def __init__(self, root: Path, locale: Locale, read: Reader) -> None:
        self.root = root
        self.locale = locale
        self.read = read

    def _say(self, key: str, **fields: object) -> str:
        return text(key, self.locale, **fields)

    def apply(self, change: FileChange) -> str | None:
        editing = change.tool == "edit_file"
        try:
            data = change.after.encode("utf-8")
        except UnicodeEncodeError:
            return self._say("tools.edit.encode" if editing else "tools.write.encode")
        if change.before is None:
            return self._create(change, data)
        return self._replace(change, data, editing=editing)

    def _create(self, change: FileChange, data: bytes) -> str | None:
        path, made = change.path, list[Path]()
        try:
            _make_parents(path.parent, made)
        except OSError as exc:
            _remove_dirs(made)
            return self._say("tools.disk.mkdir_failed", path=change.rel, error=_os_error(exc))
        # Re-check after creating the folders: the parent must still be where it was checked.
        if not self._still_inside(path):
            _remove_dirs(made)
            return self._say("tools.write.not_allowed", path=change.rel)
        reason = self._create_file(change, data)
        if reason is not None:
            _remove_dirs(made)
        return reason

    def _still_inside(self, path: Path) -> bool:
        try:
            parent = path.parent.resolve(strict=True)
        except (OSError, RuntimeError):
            return False
        return parent == path.parent and not is_ignored(self.root, path)

    def _create_file(self, change: FileChange, data: bytes) -> str | None:
        path = change.path
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(path, flags, 0o666)
        except FileExistsError:
            return self._say("tools.write.raced")
        except OSError as exc:
            return self._say("tools.disk.create_failed", path=change.rel, error=_os_error(exc))
        identity = os.fstat(fd)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as exc:
            _unlink_if_same(path, identity)
            return self._say("tools.disk.create_failed", path=change.rel, error=_os_error(exc))
        _fsync_dir(path.parent)
        return None

    def _replace(self, change: FileChange, data: bytes, *, editing: bool) -> str | None:
        path, before = change.path, change.before
        stale = self._say("tools.edit.changed_meanwhile" if editing else "tools.write.stale")
        try:
            if self.read(path) != before:
                return stale
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            return self._say("tools.disk.missing", path=change.rel)
        except (OSError, UnicodeDecodeError):
            return stale
        temp: Path | None = None
        try:
            fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            temp = Path(name)
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if self.read(path) != before:  # last look before the swap (seed Day 10)
                return stale
            temp.chmod(mode)
            temp.replace(path)
            temp = None
        except (OSError, UnicodeDecodeError) as exc:
            if editing:
                return self._say("tools.disk.edit_failed", path=change.rel, error=_os_error(exc))
            return self._say("tools.disk.replace_failed", error=_os_error(exc))
        finally:
            if temp is not None:
                with contextlib.suppress(OSError):
                    temp.unlink(missing_ok=True)
        _fsync_dir(path.parent)
        return None


def _make_parents(folder: Path, made: list[Path]) -> None:
    """Create `folder` and its missing ancestors, recording each one created (outermost first)."""
    missing: list[Path] = []
    current = folder
    while not current.exists():
        missing.append(current)
        current = current.parent
    for directory in reversed(missing):
        directory.mkdir()
        made.append(directory)


def _remove_dirs(made: list[Path]) -> None:
    """Undo `_make_parents`: remove the folders it created, innermost first, if still empty."""
    for directory in reversed(made):
        with contextlib.suppress(OSError):
            directory.rmdir()


def _unlink_if_same(path: Path, identity: os.stat_result) -> None:
    """Remove a half-written new file, but only if it is still the one this process created."""
    with contextlib.suppress(OSError):
        info = path.stat(follow_symlinks=False)
        if (info.st_dev, info.st_ino) == (identity.st_dev, identity.st_ino):
            path.unlink()


def _fsync_dir(folder: Path) -> None:
    """Flush a folder's entry list so a created or replaced name survives a power cut."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _os_error(exc: BaseException) -> str:
    """An OS error without the absolute path Python appends (it would leak the machine's layout)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__
