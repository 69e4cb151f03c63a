"""The audit log's files: JSON lines per workspace folder, in the user's state folder.

`$XDG_STATE_HOME/kesi/audit/<folder>-<hash>.jsonl` (else `~/.local/state/...`), beside the saved
conversations and named the same way, never inside the workspace (where the agent's own tools
could read or rewrite it). Records are appended by one writer thread, so a slow disk never
holds up the event loop; a file past `max_bytes` is rotated (`.1`, `.2`, ... up to `keep`
old files), so the log cannot fill the disk. Resetting the conversation does not touch it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import queue
import re
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

log = logging.getLogger(__name__)

MAX_BYTES: Final = 2 << 20
"""A folder's file is rotated past 2 MiB (some 8000 commands)."""
KEEP: Final = 3
"""Rotated files kept: `.1` (newest) to `.3`."""
SUFFIX: Final = ".jsonl"


def file_name(root: Path) -> str:
    """The folder's file name: its name, and a hash of its whole path (as the conversations')."""
    digest = hashlib.sha256(str(root).encode("utf-8", "surrogatepass")).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9._-]+", "-", root.name)[:40] or "folder"
    return f"{name}-{digest}{SUFFIX}"


@dataclass
class AuditLog:
    """The audit files of one user: `append` queues a record, `flush` waits for the disk."""

    directory: Path
    max_bytes: int = MAX_BYTES
    keep: int = KEEP
    _queue: queue.SimpleQueue[tuple[Path, str] | threading.Event] = field(
        default_factory=queue.SimpleQueue
    )
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def file_for(self, root: Path) -> Path:
        return self.directory / file_name(root)

    def inside(self, root: Path) -> bool:
        """Whether the log's folder is inside the workspace `root` (then it is not written)."""
        return self.directory.resolve().is_relative_to(root.resolve())

    def append(self, root: Path, record: Mapping[str, Any]) -> None:
        """Queue `record` (already redacted) for the file of `root`."""
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"
        self._start()
        self._queue.put((self.file_for(root), line))

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every record so far is written (tests, shutdown, `kesi.audit`)."""
        if self._thread is None:
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def _start(self) -> None:
        with self._lock:
            if self._thread is None:
                self._thread = threading.Thread(target=self._work, name="kesi-audit", daemon=True)
                self._thread.start()

    def _work(self) -> None:
        while True:
            item = self._queue.get()
            if isinstance(item, threading.Event):
                item.set()
                continue
            path, line = item
            try:
                self._write(path, line)
            except OSError as exc:
                log.warning("could not write the audit log %s: %s", path, exc)

    def _write(self, path: Path, line: str) -> None:
        data = line.encode("utf-8", "surrogatepass")
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if path.stat().st_size + len(data) > self.max_bytes:
                self._rotate(path)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data)
        finally:
            os.close(fd)

    def _rotate(self, path: Path) -> None:
        """`path` becomes `.1`, `.1` becomes `.2`, ...; the oldest beyond `keep` goes."""
        for n in range(self.keep - 1, 0, -1):
            older = path.with_name(f"{path.name}.{n}")
            if older.exists():
                older.replace(path.with_name(f"{path.name}.{n + 1}"))
        path.replace(path.with_name(f"{path.name}.1"))

    def files(self, root: Path) -> list[Path]:
        """The folder's files, oldest first (the rotated ones, then the current)."""
        path = self.file_for(root)
        old = [path.with_name(f"{path.name}.{n}") for n in range(self.keep, 0, -1)]
        return [p for p in (*old, path) if p.is_file()]

    def records(self, root: Path, limit: int | None = None) -> list[dict[str, Any]]:
        """The folder's records, oldest first (the newest `limit` of them); a line that does
        not read as a record (a torn write) is skipped."""
        found: list[dict[str, Any]] = []
        for path in self.files(root):
            try:
                lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError as exc:
                log.warning("could not read the audit log %s: %s", path, exc)
                continue
            for raw in lines:
                with contextlib.suppress(ValueError):
                    record = json.loads(raw)
                    if isinstance(record, dict):
                        found.append(record)
        return found if limit is None else found[-limit:]
