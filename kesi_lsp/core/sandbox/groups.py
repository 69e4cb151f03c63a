"""Process groups: how every shell command KeSi runs is started and stopped (seed Day 11).

A command runs in its own process group, tied to the server's lifeline (`children.start`), and
is stopped the seed's way: SIGTERM to the whole group, 3 s, SIGKILL. run_command (foreground)
and the background tasks (`kesi_lsp.core.background`) share these, so both stop alike.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import Final

from kesi_lsp.core.sandbox import children
from kesi_lsp.core.sandbox.pipes import settle

__all__ = ["KILL_GRACE_SECONDS", "POLL_SECONDS", "READ_CHUNK", "settle", "spawn", "stop_group"]

KILL_GRACE_SECONDS: Final = 3.0
READ_CHUNK: Final = 65536
POLL_SECONDS: Final = 0.05


def _group_alive(pgid: int) -> bool:
    """Tell whether any live (non-zombie) process is left in process group `pgid`."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            return True
    return False


def _signal_group(pgid: int, sig: signal.Signals) -> bool:
    """Send `sig` to the group; False when the group no longer exists."""
    try:
        os.killpg(pgid, sig)
    except OSError:
        return False
    return True


async def stop_group(pgid: int) -> None:
    """Knock, then break the door: SIGTERM the group, wait up to 3 s for it, then SIGKILL.

    A second cancellation while waiting skips straight to SIGKILL.
    """
    if not _signal_group(pgid, signal.SIGTERM):
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + KILL_GRACE_SECONDS
    try:
        while loop.time() < deadline:
            if not await asyncio.to_thread(_group_alive, pgid):
                return
            await asyncio.sleep(POLL_SECONDS)
    finally:
        _signal_group(pgid, signal.SIGKILL)


async def spawn(
    argv: list[str], root: Path, env: dict[str, str], extra_fds: tuple[int, ...] = ()
) -> asyncio.subprocess.Process:
    """Start the shell in its own process group, tied to the server (`children.start`: it dies
    with the server, also a killed one); a cancel during the start still kills the group.

    If the task is cancelled while asyncio is still creating the process, asyncio's own clean-up
    kills only the shell, and a background child it already forked would live on. So the start
    itself is shielded; on cancellation the start is awaited, the whole group is stopped, and the
    cancellation goes on.
    """
    start = asyncio.ensure_future(
        children.start(
            argv,
            cwd=root,
            env=env,
            watches_itself=True,  # the sandbox's argv: the guard, or the tethered shell
            extra_fds=extra_fds,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
    )
    try:
        return await asyncio.shield(start)
    except asyncio.CancelledError:
        with contextlib.suppress(OSError, ValueError):
            proc = await start
            try:
                await stop_group(proc.pid)
            finally:
                await settle(proc)
        raise
