"""The sandbox guard: the small process that stands between run_command and bubblewrap.

run_command starts `python -I -S guard.py SPEC`; the guard starts bwrap and stays outside the
sandbox, where the command cannot reach it. It does five things bwrap cannot do alone:

1. Close the ignore list at run time. It walks the workspace (never following symlinks) and
   masks what it finds *now*, so a `.env` created a minute ago is covered: secrets
   (`.env`, `.env.*`, `.DS_Store`) are replaced by an empty file or folder nobody may open
   (mode 000: reading gives "Permission denied"); tool state (`.git`, `.venv`, `venv`,
   `node_modules`, `__pycache__`) is bound read-only over itself, and `.git/config` (remote URLs
   with tokens, programs git would run) is shown empty, as are its submodules' and worktrees'.
   It does not descend into those folders: a `.env` shipped inside `node_modules` is not masked.
   UNIX sockets found on the way (and among `.git`'s own entries) are covered the same way:
   the sandbox has no network, and a host service's socket would be a way out.
2. Cap the processes. A fork bomb is stopped, not just slowed down: with a writable cgroup (a
   root host, or a delegated cgroup) `pids.max` refuses forks past the limit; in any case the
   guard counts the processes in the sandbox's PID namespace every `POLL_SECONDS` and, past the
   limit, kills the sandbox and says so.
3. Cap the memory: a memory cgroup where the host allows one (the whole command; past it the
   kernel stops the process using the most, and the guard says so), else RLIMIT_AS on every
   process (an allocation past it fails; run_command's note says why, `hidden.py`).
4. Cap the disk. `RLIMIT_FSIZE` stops any single file at the limit (the writer dies of SIGXFSZ:
   exit status 153, reported in words); the guard also stops the command when the workspace's
   filesystem loses more than the budget or runs low. Temp folders are size-limited tmpfs.
6. Join the session's shared network namespace when the session runs background tasks
   (`netns.py`), so a task's server and a later command meet on 127.0.0.1; bwrap then keeps
   that namespace (`--share-net`) and unshares everything else.
5. Leave nothing behind. bwrap runs with `--die-with-parent` in its own PID namespace, so when
   the guard dies (the tool's SIGTERM, SIGKILL or a closed editor) every process of the command
   dies with it; the guard removes its mask kit and cgroup on the way out. The guard itself
   watches the server's lifeline (`children.py`: a pipe only the server holds): when the
   server is gone, however it died, the guard kills bwrap, and so the whole sandbox, at once.

This file is run by path with `-I -S` (no site, no environment): it imports nothing but the
standard library and its stdlib-only siblings `masks.py`, `cgroups.py` and `tether.py`. The
SPEC is one JSON argument built by `bubblewrap.py`.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import select
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING or __name__ != "__main__":
    from kesi_lsp.core.sandbox.cgroups import CommandCgroups
    from kesi_lsp.core.sandbox.masks import extra_masks, mask_kit, workspace_masks
    from kesi_lsp.core.sandbox.tether import server_gone, take_lifeline
else:  # run by path with -I -S: the siblings are plain files next to this one
    sys.path.append(str(Path(__file__).resolve().parent))  # after the standard library
    from cgroups import CommandCgroups
    from masks import extra_masks, mask_kit, workspace_masks
    from tether import server_gone, take_lifeline

POLL_SECONDS: Final = 0.05
EXIT_REFUSED: Final = 126
EXIT_STOPPED: Final = 137  # 128 + SIGKILL: what a shell reports for a killed command
EXIT_FILE_TOO_BIG: Final = 128 + signal.SIGXFSZ
CLONE_NEWUSER: Final = 0x10000000
CLONE_NEWNET: Final = 0x40000000


@dataclass(frozen=True)
class Spec:
    """What bubblewrap.py tells the guard (see `Spec.from_json`)."""

    bwrap: list[str]
    inner: list[str]
    command: str
    root: str
    secret_names: list[str]
    secret_prefixes: list[str]
    readonly_names: list[str]
    blank_files: list[str]
    deny_paths: list[str]
    max_entries: int
    max_processes: int
    max_file_bytes: int
    disk_budget_bytes: int
    min_free_bytes: int
    max_memory_bytes: int
    use_cgroup: bool
    messages: dict[str, str]
    shared_net: dict[str, int] | None = None
    """The session's shared namespaces (`netns.py`): descriptors to join before bwrap runs."""

    @classmethod
    def from_json(cls, raw: str) -> Spec:
        data: dict[str, Any] = json.loads(raw)
        return cls(**data)


# -- limits ------------------------------------------------------------------------------------


def sandbox_process_count(bwrap_pid: int) -> int:
    """How many processes live in the sandbox's PID namespace (0 while it is starting).

    A child that has not yet moved into its new root still sees the host's /proc there: its
    hundreds of processes are not the command's (counting them stopped a command at its start
    on a loaded machine), so such a child counts as starting.
    """
    try:
        children = Path(f"/proc/{bwrap_pid}/task/{bwrap_pid}/children").read_text().split()
        own_root = Path("/").stat()
    except OSError:
        return 0
    total = 0
    for child in children:
        with contextlib.suppress(OSError):
            root = Path(f"/proc/{child}/root").stat()
            if (root.st_dev, root.st_ino) == (own_root.st_dev, own_root.st_ino):
                continue
            with os.scandir(f"/proc/{child}/root/proc") as listing:
                total += sum(entry.name.isdigit() for entry in listing)
    return total


def free_bytes(path: str) -> int:
    try:
        info = os.statvfs(path)
    except OSError:
        return -1
    return info.f_bavail * info.f_frsize


# -- running -----------------------------------------------------------------------------------


def say(message: str) -> None:
    """One line into the command's own output, which run_command returns to the model."""
    with contextlib.suppress(OSError):
        os.write(1, ("\n" + message + "\n").encode("utf-8", "replace"))


class Supervisor:
    """Start bwrap, watch it, and kill it (and so the whole sandbox) when a limit is crossed."""

    def __init__(self, spec: Spec, lifeline: int | None = None) -> None:
        self.spec = spec
        self.lifeline = lifeline
        self.cgroup: CommandCgroups | None = None
        self.memory_kills = 0
        self.stopped_for: str | None = None
        self.refused_processes = False
        self.signal_received: int | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    def on_signal(self, signum: int) -> None:
        self.signal_received = signum
        self.stop("signal")

    def stop(self, why: str) -> None:
        if self.stopped_for is None:
            self.stopped_for = why
        if self.proc is not None:
            with contextlib.suppress(OSError):
                self.proc.kill()

    def start(self, argv: Sequence[str]) -> None:
        spec = self.spec
        self.cgroup = CommandCgroups(
            spec.max_processes, spec.max_memory_bytes, wanted=spec.use_cgroup
        )
        if self.lifeline is not None and server_gone(self.lifeline, 0):
            self.stop("server")  # it died while the masks were computed: start nothing
        if self.stopped_for is None:  # a signal may have come first
            self.proc = subprocess.Popen(argv, preexec_fn=self._enter_limits)
            stopped_for = self._stopped_for()  # (a signal handler may have set it meanwhile)
            if stopped_for is not None:  # or during the start, before `proc` was set
                self.stop(stopped_for)

    def _stopped_for(self) -> str | None:
        """Why it was stopped, read afresh: signal handlers set it between statements."""
        return self.stopped_for

    def watch(self) -> int:
        if self.proc is None:
            return EXIT_STOPPED
        start_free = free_bytes(self.spec.root)
        pidfd = _pidfd(self.proc.pid)
        while True:
            self._pause(pidfd)
            if self.lifeline is not None and server_gone(self.lifeline, 0):
                self.stop("server")
                return self.proc.wait()
            code = self.proc.poll()
            if code is not None:
                return code
            if self._too_many_processes():
                self.stop("processes")
            elif start_free >= 0 and self._disk_exhausted(start_free):
                self.stop("disk")

    def _pause(self, pidfd: int | None) -> None:
        """Sleep until bwrap exits or the server goes (each wakes us at once, through a pidfd
        and the lifeline), or for POLL_SECONDS, the pace of the limit checks."""
        assert self.proc is not None
        if pidfd is None:  # no pidfd (a kernel before 5.3): subprocess's own polling wait
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=POLL_SECONDS)
            return
        watched = [pidfd] if self.lifeline is None else [pidfd, self.lifeline]
        select.select(watched, [], [], POLL_SECONDS)

    def _enter_limits(self) -> None:
        """In bwrap's process before exec: join the cgroups; without a memory cgroup, cap
        each process's address space instead (inherited by everything in the sandbox)."""
        assert self.cgroup is not None
        self.cgroup.join()
        memory = self.spec.max_memory_bytes
        if memory > 0 and not self.cgroup.limits_memory:
            resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if self.spec.shared_net is not None:  # last: the cgroup is joined with our own rights
            join_network(self.spec.shared_net)

    def close(self) -> None:
        if self.cgroup is not None:
            self.refused_processes = self.cgroup.limit_hit()
            self.memory_kills = self.cgroup.memory_kills()
            self.cgroup.remove()

    def _too_many_processes(self) -> bool:
        assert self.proc is not None and self.cgroup is not None
        if self.cgroup.limit_hit():
            return True
        return sandbox_process_count(self.proc.pid) >= self.spec.max_processes

    def _disk_exhausted(self, start_free: int) -> bool:
        now = free_bytes(self.spec.root)
        if now < 0:
            return False
        used = start_free - now
        low = now < self.spec.min_free_bytes <= start_free
        return used > self.spec.disk_budget_bytes or low


def join_network(network: dict[str, int]) -> None:
    """Enter the session's shared network namespace (`netns.py`): its user namespace first
    (whose owner we are, so we hold every capability there), then the network namespace it
    owns. Runs in bwrap's process before exec; an error there fails the start, never runs
    the command in a network it was not meant for."""
    libc = ctypes.CDLL(None, use_errno=True)
    for key, kind in (("user_fd", CLONE_NEWUSER), ("net_fd", CLONE_NEWNET)):
        if libc.setns(network[key], kind) != 0:
            error = ctypes.get_errno()
            raise OSError(error, os.strerror(error))


def _pidfd(pid: int) -> int | None:
    """A descriptor that becomes readable when `pid` exits (Linux 5.3+), else None."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def exit_status(returncode: int) -> int:
    """A shell's view of a status: killed by signal N is 128 + N."""
    return 128 - returncode if returncode < 0 else returncode


def run(spec: Spec) -> int:
    supervisor = Supervisor(spec, take_lifeline(os.environ))
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda n, _f: supervisor.on_signal(n))
    with mask_kit() as kit:
        masks = workspace_masks(spec, kit)
        if masks is None:
            say(spec.messages["too_large"])
            return EXIT_REFUSED
        argv = [
            *spec.bwrap,
            *masks,
            *extra_masks(spec, kit),
            "--remount-ro",
            "/",
            "--",
            *spec.inner,
            spec.command,
        ]
        resource.setrlimit(resource.RLIMIT_FSIZE, (spec.max_file_bytes, spec.max_file_bytes))
        try:
            supervisor.start(argv)
            status = exit_status(supervisor.watch())
        finally:
            supervisor.close()
    if supervisor.signal_received is not None:
        # Die of the same signal, so run_command reports "killed by signal N" as it does
        # for a command without the sandbox.
        signal.signal(supervisor.signal_received, signal.SIG_DFL)
        os.kill(os.getpid(), supervisor.signal_received)
    why = supervisor.stopped_for
    if why in ("processes", "disk"):
        say(spec.messages[why])
        return EXIT_STOPPED
    if supervisor.memory_kills:
        say(spec.messages["memory"])
    if why is None and supervisor.refused_processes:
        say(spec.messages["processes_refused"])  # it collapsed before the guard looked
    elif why is None and status == EXIT_FILE_TOO_BIG:
        say(spec.messages["file_size"])
    return status


def main(argv: Sequence[str]) -> int:
    if len(argv) != 2:
        sys.stderr.write("usage: guard.py SPEC_JSON\n")
        return 2
    return run(Spec.from_json(argv[1]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
