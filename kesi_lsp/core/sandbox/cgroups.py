"""The sandbox guard's cgroups: hard caps on one command's processes and memory, where the host
allows them.

With a writable cgroup (a root host, or a delegated cgroup whose `cgroup.subtree_control`
enables the controller) the guard makes one group per command and controller, moves bwrap into
them before exec (so every process of the command is in them), and removes them after:

- pids: `pids.max` refuses forks past the limit (a fork bomb collapses);
- memory: `memory.max` (v2) or `memory.limit_in_bytes` (v1), swap included where the host
  accounts it, so the command as a whole cannot take more; past it the kernel's OOM killer
  stops the process using the most, and the guard reads the kill from `memory.events` (v2) or
  `memory.oom_control` (v1) to say so.

Without a memory cgroup the guard falls back on RLIMIT_AS (`guard.py`). Part of the guard: run
by path with `-I -S`, it imports nothing but the standard library.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


def _write(path: Path, value: str) -> bool:
    try:
        path.write_text(value)
    except OSError:
        return False
    return True


def _counter(path: Path, name: str) -> int:
    """The value of `name` in a flat-keyed cgroup file (`pids.events`, `memory.events`)."""
    try:
        fields = path.read_text().split()
    except OSError:
        return 0
    for key, value in zip(fields[::2], fields[1::2], strict=False):
        if key == name and value.isdigit():
            return int(value)
    return 0


class CommandCgroups:
    """The pids and memory cgroups of one command (`pids` / `memory` None where the host does
    not let us make one; `max_memory` 0 asks for none)."""

    def __init__(self, max_processes: int, max_memory: int = 0, *, wanted: bool = True) -> None:
        self.pids: Path | None = None
        self.memory: Path | None = None
        self.memory_v1 = False
        if not wanted:
            return
        self.pids = _make(controller_parents("pids"), {"pids.max": str(max_processes)})
        if max_memory > 0:
            self._make_memory(max_memory)

    def _make_memory(self, limit: int) -> None:
        for parent, v1 in memory_parents():
            settings = {"memory.limit_in_bytes" if v1 else "memory.max": str(limit)}
            if self.pids is not None and self.pids.parent == parent:  # v2: one group for both
                group = self.pids if _apply(self.pids, settings) else None
            else:
                group = _make([parent], settings)
            if group is None:
                continue
            # Where swap is accounted, the limit holds with it too (v1 needs it set after).
            _apply(
                group,
                {"memory.memsw.limit_in_bytes": str(limit)} if v1 else {"memory.swap.max": "0"},
            )
            self.memory, self.memory_v1 = group, v1
            return

    @property
    def limits_memory(self) -> bool:
        return self.memory is not None

    def join(self) -> None:
        """Run in the child before exec: move it (and so all its descendants) into the groups."""
        for group in {g for g in (self.pids, self.memory) if g is not None}:
            (group / "cgroup.procs").write_text("0")

    def limit_hit(self) -> bool:
        """Whether a fork was refused at the process limit."""
        return self.pids is not None and _counter(self.pids / "pids.events", "max") > 0

    def memory_kills(self) -> int:
        """How many processes the OOM killer stopped at the memory limit."""
        if self.memory is None:
            return 0
        name = "memory.oom_control" if self.memory_v1 else "memory.events"
        return _counter(self.memory / name, "oom_kill")

    def remove(self) -> None:
        for group in {g for g in (self.pids, self.memory) if g is not None}:
            for _ in range(100):
                try:
                    group.rmdir()
                    break
                except OSError:
                    time.sleep(0.01)


def _apply(group: Path, settings: dict[str, str]) -> bool:
    return all(_write(group / name, value) for name, value in settings.items())


def _make(parents: list[Path], settings: dict[str, str]) -> Path | None:
    """A new group under the first parent that takes it with `settings`, or None."""
    for parent in parents:
        candidate = parent / f"kesi-sandbox-{os.getpid()}"
        try:
            candidate.mkdir()
        except OSError:
            continue
        if _apply(candidate, settings):
            return candidate
        with contextlib.suppress(OSError):
            candidate.rmdir()
    return None


def _own_cgroups() -> list[tuple[str, str]]:
    """(controllers, path) of each line of /proc/self/cgroup; v2's controllers are ""."""
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return []
    found = []
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) == 3:
            found.append((parts[1], parts[2].lstrip("/")))
    return found


def controller_parents(controller: str) -> list[Path]:
    """Writable places for a `controller` group: the v1 hierarchy of that controller, or our
    own v2 cgroup when it delegates the controller to its children."""
    return [parent for parent, _ in _parents(controller)]


def memory_parents() -> list[tuple[Path, bool]]:
    """Writable places for a memory group, each with whether it is cgroup v1."""
    return _parents("memory")


def _parents(controller: str) -> list[tuple[Path, bool]]:
    parents: list[tuple[Path, bool]] = []
    for controllers, path in _own_cgroups():
        if controller in controllers.split(","):
            parents.append((ROOT / controller / path, True))
        elif controllers == "" and _delegates(ROOT / path, controller):
            parents.append((ROOT / path, False))
    return [(p, v1) for p, v1 in parents if os.access(p, os.W_OK)]


def _delegates(base: Path, controller: str) -> bool:
    try:
        return controller in (base / "cgroup.subtree_control").read_text().split()
    except OSError:
        return False
