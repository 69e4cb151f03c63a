"""The sandbox guard's cgroup: a hard cap on one command's processes, where the host allows it.

With a writable cgroup (a root host, or a delegated cgroup) the guard makes one group per
command, moves bwrap into it before exec (so every process of the command is in it), and
removes it after. Part of the guard (`guard.py`): run by path with `-I -S`, it imports nothing
but the standard library.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path


class PidsCgroup:
    """A pids cgroup for one command, when this host lets us make one (else `path` is None)."""

    def __init__(self, limit: int, *, wanted: bool = True) -> None:
        self.path: Path | None = None
        for parent in _cgroup_parents() if wanted else []:
            candidate = parent / f"kesi-sandbox-{os.getpid()}"
            try:
                candidate.mkdir()
            except OSError:
                continue
            try:
                (candidate / "pids.max").write_text(str(limit))
            except OSError:
                with contextlib.suppress(OSError):
                    candidate.rmdir()
                continue
            self.path = candidate
            return

    def join(self) -> None:
        """Run in the child before exec: move it (and so all its descendants) into the group."""
        if self.path is not None:
            (self.path / "cgroup.procs").write_text("0")

    def limit_hit(self) -> bool:
        if self.path is None:
            return False
        try:
            fields = (self.path / "pids.events").read_text().split()
        except OSError:
            return False
        return "max" in fields and fields[fields.index("max") + 1] != "0"

    def remove(self) -> None:
        if self.path is None:
            return
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.01)


def _cgroup_parents() -> list[Path]:
    """Writable places for a pids cgroup: the v1 pids hierarchy, or our own v2 cgroup."""
    parents: list[Path] = []
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return []
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if "pids" in controllers.split(","):
            parents.append(Path("/sys/fs/cgroup/pids", path.lstrip("/")))
        elif controllers == "":
            base = Path("/sys/fs/cgroup", path.lstrip("/"))
            if _has_pids_controller(base):
                parents.append(base)
    return [p for p in parents if os.access(p, os.W_OK)]


def _has_pids_controller(base: Path) -> bool:
    try:
        return "pids" in (base / "cgroup.subtree_control").read_text().split()
    except OSError:
        return False
