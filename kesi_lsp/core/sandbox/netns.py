"""One network namespace per session, shared by its sandboxed commands once a task runs.

Every bubblewrap command gets a network namespace of its own with only a loopback in it (no
network: `bubblewrap.py`). A background dev server on 127.0.0.1:8000 would then be out of reach
of the `curl` the model runs next, in a namespace of its own. So the first background task of a
session makes one namespace (a user namespace owning a network namespace whose loopback is up,
made by bwrap itself, then left empty), and that task and every later sandboxed command of the
session join it (`guard.py`: setns into the user, then the network namespace, in bwrap's process
before exec; bwrap then runs with `--share-net` and unshares everything else as before).

What changes and what does not: the shared namespace has only its own loopback, exactly like a
command's private one; nothing reaches the host's network or the host's loopback. The only
difference is that the session's commands see each other's listening sockets on 127.0.0.1.
Commands before the first task, and other sessions, keep their private namespaces.

The namespace lives as long as the server holds the two descriptors (and any process is in it):
`close` (reset, folder removal, exit) drops them, and a dead server drops them with it. No pid is
kept, so a reused pid can never point a command at someone else's namespace.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kesi_lsp.core.sandbox import children

OPEN_SECONDS: Final = 5.0
POLL_SECONDS: Final = 0.01
HOLDER_ARGS: Final = (
    *("--unshare-user", "--unshare-net", "--die-with-parent", "--ro-bind", "/", "/"),
    *("--", "/bin/sh", "-c", "read _"),
)


@dataclass
class SharedNetwork:
    """The session's namespaces, as descriptors the server holds (`user`, `net`)."""

    user: int
    net: int
    closed: bool = False

    def fds(self) -> tuple[int, ...]:
        return () if self.closed else (self.user, self.net)

    def spec(self) -> dict[str, int]:
        """What the guard needs: the descriptor numbers it inherits."""
        return {"user_fd": self.user, "net_fd": self.net}

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        for fd in (self.user, self.net):
            with contextlib.suppress(OSError):
                os.close(fd)


def open_network(bwrap: str) -> SharedNetwork:
    """Make the namespaces with `bwrap` (blocking: call it in a worker thread).

    bwrap makes a user and a network namespace and brings their loopback up; its child waits
    on a pipe while the namespaces are opened, then ends, leaving them held by the descriptors.
    Raises OSError when it cannot be done (the caller says so; the task is not started).
    """
    holder = subprocess.Popen(
        children.tied([bwrap, *HOLDER_ARGS]),
        env=children.environment(None),
        pass_fds=(children.lifeline(),),
        start_new_session=True,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        inner = _inner_pid(holder)
        user = os.open(f"/proc/{inner}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
        try:
            net = os.open(f"/proc/{inner}/ns/net", os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            os.close(user)
            raise
        return SharedNetwork(user, net)
    finally:
        assert holder.stdin is not None
        with contextlib.suppress(OSError):
            holder.stdin.close()
        try:
            holder.wait(OPEN_SECONDS)
        except subprocess.TimeoutExpired:
            children.kill_group(holder.pid)
            holder.wait()
        if holder.stderr is not None:
            holder.stderr.close()


def _inner_pid(holder: subprocess.Popen[bytes]) -> int:
    """The process inside bwrap (tether -> bwrap -> it), once it is in a network namespace
    other than ours."""
    ours = Path("/proc/self/ns/net").readlink()
    deadline = time.monotonic() + OPEN_SECONDS
    while time.monotonic() < deadline:
        if holder.poll() is not None:
            error = holder.stderr.read().decode("utf-8", "replace") if holder.stderr else ""
            raise OSError(f"bwrap could not make a network namespace: {error.strip()}")
        for pid in _descendants(holder.pid):
            with contextlib.suppress(OSError):
                if Path(f"/proc/{pid}/ns/net").readlink() != ours:
                    return pid
        time.sleep(POLL_SECONDS)
    raise OSError("bwrap did not make a network namespace in time")


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    pending = [pid]
    while pending:
        current = pending.pop()
        with contextlib.suppress(OSError):
            kids = Path(f"/proc/{current}/task/{current}/children").read_text().split()
            found += [int(k) for k in kids]
            pending += [int(k) for k in kids]
    return found
