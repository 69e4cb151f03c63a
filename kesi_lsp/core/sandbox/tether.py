"""The tether: run one program so that it and its whole process group die with the server.

`children.py` starts every program KeSi runs outside bubblewrap as
`python -I -S tether.py -- PROGRAM ARGS...` (the sandbox guard, `guard.py`, watches the same
lifeline itself). The tether starts the program, waits for it, and ends with the program's own
exit status, or dies of the same signal, so its parent sees what it would have seen without it.

What it adds: the server's *lifeline*, the read end of a pipe whose write end only the server
holds, named by `KESI_LIFELINE`. When the server exits, however it dies (SIGKILL, the OOM
killer, a crash), the kernel closes that write end and the pipe reads as ended. The tether then
kills its process group with SIGKILL: the program and everything it started that stayed in the
group, as the seed's interruption does (Days 11, 12). Why a pipe rather than
`PR_SET_PDEATHSIG` is said in `children.py`.

The tether always leads its own process group (it makes one if its parent did not), so that
killing "its group" can never reach the server's or the editor's. Without `KESI_LIFELINE` (a
test or the doctor running a sandbox's argv directly) it simply becomes the program (`exec`).

This file is run by path with `-I -S` (no site, no environment): it imports nothing but the
standard library, and the guard uses `take_lifeline` and `server_gone` from it.
"""

from __future__ import annotations

import contextlib
import os
import resource
import select
import signal
import stat
import sys
from collections.abc import MutableMapping, Sequence
from typing import Final

LIFELINE_VARIABLE: Final = "KESI_LIFELINE"
FORWARDED: Final = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)
EXIT_CANNOT_RUN: Final = 127  # what a shell says for a program it cannot start
EXIT_SERVER_GONE: Final = 128 + signal.SIGKILL


def take_lifeline(environ: MutableMapping[str, str]) -> int | None:
    """The lifeline named in `environ` (removed from it: the program must never see it), or
    None when there is none to watch. The descriptor is made non-inheritable, so the program
    and anything it starts do not hold it."""
    raw = environ.pop(LIFELINE_VARIABLE, None)
    if raw is None or not raw.isdigit():
        return None
    fd = int(raw)
    try:
        if not stat.S_ISFIFO(os.fstat(fd).st_mode):
            return None
        os.set_inheritable(fd, False)
    except OSError:
        return None
    return fd


def server_gone(fd: int, timeout: float | None) -> bool:
    """Wait up to `timeout` seconds (None: for ever); True once the lifeline has ended.

    Nothing is ever written into the pipe, so "readable" can only mean end of file: every copy
    of the write end is closed, and the server holds the only one.
    """
    try:
        ready, _, _ = select.select([fd], [], [], timeout)
    except (OSError, ValueError):
        return True  # the descriptor itself is gone: nothing ties us to a server any more
    return bool(ready)


def _lead_own_group() -> None:
    """Make sure our process group is ours alone: never kill the group of whoever started us."""
    if os.getpgrp() != os.getpid():
        os.setpgid(0, 0)


def _spawn(program: Sequence[str]) -> int:
    """Start the program in our group, with the signals a fresh program expects (Python
    ignores SIGPIPE and SIGXFSZ; `subprocess` restores them for its children, so do we)."""
    return os.posix_spawn(
        program[0],
        list(program),
        os.environ,
        setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),
    )


def _detach_stdio() -> None:
    """Let go of our copies of stdin, stdout and stderr: the pipes the server reads end when
    the program closes them, not when the tether does."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    os.close(devnull)


def _exit_like(status: int) -> int:
    """End as the program ended: its exit code, or death by the same signal (no core file)."""
    if os.WIFSIGNALED(status):
        signum = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if signum != signal.SIGKILL:  # (SIGKILL has no handler to reset)
            signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)
        return 128 + signum  # only for a signal that does not kill by default
    return os.waitstatus_to_exitcode(status)


def watch(pid: int, lifeline: int) -> int:
    """Wait for the program; if the server goes first, kill the whole group (us included).

    SIGCHLD wakes the wait through a wakeup pipe, so the tether sleeps until something
    happens: no polling, however long the program runs (a dev server, an MCP server).
    """
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda _n, _f: None)
    for signum in FORWARDED:  # the caller asked the program to stop: pass it on
        signal.signal(signum, lambda n, _f: _forward(pid, n))
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return _exit_like(status)
        ready, _, _ = select.select([lifeline, wake_read], [], [])
        if lifeline in ready:
            os.killpg(os.getpid(), signal.SIGKILL)
        if wake_read in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(wake_read, 512)


def _forward(pid: int, signum: int) -> None:
    with contextlib.suppress(OSError):
        os.kill(pid, signum)


def main(argv: Sequence[str]) -> int:
    if len(argv) < 3 or argv[1] != "--":
        sys.stderr.write("usage: tether.py -- PROGRAM [ARGS...]\n")
        return 2
    program = list(argv[2:])
    lifeline = take_lifeline(os.environ)
    if lifeline is None:
        try:
            os.execv(program[0], program)  # nothing to watch: be the program itself
        except OSError as exc:
            sys.stderr.write(f"{program[0]}: {exc.strerror or exc}\n")
            return EXIT_CANNOT_RUN
    _lead_own_group()
    if server_gone(lifeline, 0):
        return EXIT_SERVER_GONE  # it died while we started: start nothing
    try:
        pid = _spawn(program)
    except OSError as exc:
        sys.stderr.write(f"{program[0]}: {exc.strerror or exc}\n")
        return EXIT_CANNOT_RUN
    _detach_stdio()
    return watch(pid, lifeline)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
