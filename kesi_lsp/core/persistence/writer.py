"""Writing saved conversations off the event loop, atomically, newest first.

A save happens after every round; its bytes are made on the caller's thread (so they are one
consistent snapshot) and written here, on one background thread, so a slow disk never holds
the editor up. Only the newest bytes for a file matter: a save that is still waiting when a
newer one arrives is replaced by it, and a delete replaces both. Each write goes to a temporary
file in the same folder, is flushed to the disk, and is renamed over the old one, so a reader
(or a restart after a kill) sees the previous version or the new one, never half of either.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

ErrorSink = Callable[[Path, OSError], None]


def write_atomically(path: Path, data: bytes) -> None:
    """Replace `path` with `data` in one step (private to the user: mode 0600)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        temporary.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise


class Writer:
    """One background thread that writes (or deletes) the newest bytes of each file."""

    def __init__(self, on_error: ErrorSink | None = None) -> None:
        self._on_error = on_error
        self._pending: dict[Path, bytes | None] = {}  # None: delete the file
        self._busy = False
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = None

    def submit(self, path: Path, data: bytes | None) -> None:
        """Write `data` to `path` soon (None: delete it), replacing a write still waiting."""
        with self._cond:
            self._pending[path] = data
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(
                    target=self._run, name="kesi-conversations", daemon=True
                )
                self._thread.start()
            self._cond.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until everything submitted so far is on disk; False if it took too long."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._pending and not self._busy, timeout)

    def _run(self) -> None:
        while True:
            with self._cond:
                if not self._cond.wait_for(lambda: bool(self._pending), timeout=30.0):
                    self._thread = None  # idle: end; the next submit starts a new thread
                    return
                path, data = self._pending.popitem()
                self._busy = True
            try:
                if data is None:
                    path.unlink(missing_ok=True)
                else:
                    write_atomically(path, data)
            except OSError as exc:
                if self._on_error is not None:
                    self._on_error(path, exc)
            finally:
                with self._cond:
                    self._busy = False
                    self._cond.notify_all()
