"""Children that die with the server: how KeSi starts every process (design §3).

Nothing KeSi starts may outlive the server, also when the server is killed with SIGKILL (an
editor crash, the OOM killer, `kill -9` of a hung process). So every child is started through
`start` (asyncio) or `run` (blocking, for short lookups): the child is a watcher of the
server's *lifeline*, a pipe whose write end only this process holds. The watcher is the sandbox
guard (`guard.py`, for bubblewrap) or the tether (`tether.py`, for everything else: `sandbox:
off`, the macOS profile, ripgrep, git, and MCP servers and background tasks as they come); when
the pipe reads as ended it kills the program's whole process group, and bubblewrap's
`--die-with-parent` carries that into the sandbox's PID namespace.

Why a lifeline pipe and not `prctl(PR_SET_PDEATHSIG)`, measured on this code base (Linux 6.18,
Python 3.11):

- The death signal follows the *thread* that forked, not the process. A `sleep` started with
  it from a worker thread was SIGKILLed the moment that thread ended, while the server lived
  on. asyncio forks in the loop thread, but the classifier's git lookups run in
  `asyncio.to_thread` workers, the tests run whole servers in threads, and a background task
  or an MCP server started from a worker would be killed early. A pipe is closed only when
  the process is gone, whichever thread started the child.
- Setting it for a program we do not control (rg, git, `/bin/sh`) needs a `preexec_fn`, which
  makes `subprocess` fork instead of vfork: 30 ms per start in a 300 MB server (vs 1 ms), with
  the event loop stopped for that long, and unsafe with threads. The tether costs 16 ms, spent
  in the child, not in the loop.
- It must be checked against a parent that died before the call (a race the pipe does not
  have: a pipe whose writer is gone already reads as ended); it is cleared when a set-user-ID
  program runs (a setuid bwrap); macOS has no such call, and the Seatbelt path needs one too.

What the pipe asks in return: no other process may hold its write end. Python makes every
descriptor non-inheritable, `subprocess` closes the rest, and a fork of this process without
exec drops its copy (`os.register_at_fork`).
"""

from __future__ import annotations

import asyncio
import errno
import os
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from kesi_lsp.core.sandbox import tether

TETHER_PATH: Final = str(Path(tether.__file__).resolve())

_lock = threading.Lock()
_lifeline: list[int] = []  # [read end, write end] once made; the write end is never closed


def lifeline() -> int:
    """The read end of this process's lifeline (made on first use, kept for its lifetime)."""
    with _lock:
        if not _lifeline:
            _lifeline.extend(os.pipe())  # both ends non-inheritable (PEP 446)
            os.register_at_fork(after_in_child=_forget_in_fork)
        return _lifeline[0]


def _forget_in_fork() -> None:
    """A forked copy of the server must not keep the server's lifeline open."""
    for fd in _lifeline:
        try:
            os.close(fd)
        except OSError:
            pass
    _lifeline.clear()


def tied(argv: Sequence[str]) -> list[str]:
    """`argv` run under the tether, which ends it with the server (`tether.py`)."""
    return [sys.executable, "-I", "-S", TETHER_PATH, "--", *argv]


def program_path(name: str, env: Mapping[str, str] | None, cwd: str | Path | None) -> str:
    """Where `name` is, found as exec would find it (on the child's PATH, or relative to its
    folder); FileNotFoundError when it is not there, as starting it directly would raise."""
    found: str | None
    if os.sep in name:
        path = Path(cwd or Path.cwd(), name)
        found = str(path) if os.access(path, os.X_OK) and not path.is_dir() else None
    else:
        found = shutil.which(name, path=(os.environ if env is None else env).get("PATH"))
    if found is None:
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), name)
    return found


def environment(env: Mapping[str, str] | None) -> dict[str, str]:
    """`env` (None: this process's) naming the lifeline for the child's watcher."""
    child = dict(os.environ if env is None else env)
    child[tether.LIFELINE_VARIABLE] = str(lifeline())
    return child


async def start(
    argv: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    watches_itself: bool = False,
    extra_fds: Sequence[int] = (),
    **kwargs: Any,
) -> asyncio.subprocess.Process:
    """Start `argv` in its own process group, tied to the server (asyncio's streams in
    `kwargs`). `watches_itself` says that `argv` already runs a watcher of the lifeline (a
    sandbox's argv: the guard, or a tethered shell), so it is not tethered again.

    The child's pid is its process group's: kill that group to stop it all. `extra_fds` are
    passed on too (the session's shared network namespace, `netns.py`).
    """
    full = list(argv) if watches_itself else tied([program_path(argv[0], env, cwd), *argv[1:]])
    return await asyncio.create_subprocess_exec(
        *full,
        env=environment(env),
        cwd=cwd,
        pass_fds=(lifeline(), *extra_fds),
        start_new_session=True,
        **kwargs,
    )


def run(
    argv: Sequence[str],
    *,
    timeout: float,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    input: str | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run a short lookup (`git config`, `bwrap --version`) tied to the server: its output as
    text (undecodable bytes replaced), stdin closed unless `input` is given. On the timeout
    (subprocess.TimeoutExpired) or any error the whole group is killed, not only the tether."""
    full = tied([program_path(argv[0], env, cwd), *argv[1:]])
    with subprocess.Popen(
        full,
        env=environment(env),
        cwd=cwd,
        pass_fds=(lifeline(),),
        start_new_session=True,
        stdin=subprocess.DEVNULL if input is None else subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        errors="replace",
    ) as proc:
        try:
            out, err = proc.communicate(input, timeout=timeout)
        except BaseException:
            kill_group(proc.pid)
            proc.communicate()
            raise
    return subprocess.CompletedProcess(list(argv), proc.returncode, out, err)


def kill_group(pgid: int) -> None:
    """SIGKILL a child's whole group (call it before the child is reaped: the id cannot have
    been reused yet)."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except OSError:
        pass
