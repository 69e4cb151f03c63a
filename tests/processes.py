"""Finding processes on the host by their command line, to prove a test's commands are gone."""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from pathlib import Path


def processes_with(marker: str, *, zombies: bool = False) -> list[int]:
    """PIDs of the processes whose command line contains `marker` (never this test's own).

    A zombie has exited but was not reaped by its parent yet. It counts only with
    `zombies=True`: for a test that whoever started the command also collected it.
    """
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rpartition(")")[2].split()[0]
        except (OSError, IndexError):
            continue
        if marker in cmdline and (zombies or state not in ("Z", "X")):
            found.append(int(entry.name))
    return found


async def running(marker: str, seconds: float = 20) -> list[int]:
    """Wait until a process whose command line holds `marker` runs; its PIDs (empty if none
    started within `seconds`). Polled every 10 ms."""
    deadline = time.monotonic() + seconds
    while True:
        found = processes_with(marker)
        if found or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.01)


async def gone(marker: str, seconds: float = 10) -> list[int]:
    """Wait until no process holds `marker` (a killed process takes a moment to exit); the
    PIDs still there after `seconds` (empty once all are gone). A survivor of a test's kill
    sleeps far longer than `seconds`, so it is still found."""
    deadline = time.monotonic() + seconds
    while True:
        found = processes_with(marker)
        if not found or time.monotonic() > deadline:
            return found
        await asyncio.sleep(0.01)


# The marks of the test being run (tests/conftest.py sets them before each test).
running_marks: frozenset[str] = frozenset()


def may_start_our_process(what: str) -> None:
    """Fail a test that starts a program of ours without the `subprocess` mark.

    `./dev test --fast` leaves those out because each costs an interpreter and the SDK's
    import (seconds of CPU here); an unmarked one would quietly slow the fast loop down.
    `KESI_TEST_SERVER=subprocess` asks for processes everywhere, so it is not checked then.
    """
    if "subprocess" in running_marks or os.environ.get("KESI_TEST_SERVER") == "subprocess":
        return
    raise AssertionError(f"this test starts {what}: mark it @pytest.mark.subprocess")


def programs_with(marker: str) -> list[str]:
    """The program names (`sleep`, `sh`, `bwrap`, `python3`...) of the live processes whose
    command line holds `marker`."""
    return [Path(cmdline[0]).name for pid in processes_with(marker) if (cmdline := _cmdline(pid))]


def sleeping(marker: str) -> int:
    """How many live `sleep MARKER` processes there are: a command's own sleeps, not the
    shell, tether, guard or bwrap whose command lines also carry the marker."""
    return programs_with(marker).count("sleep")


def _cmdline(pid: int) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return raw.decode("utf-8", "replace").split("\0")[:-1]


def marked_sleeps(marker: str) -> str:
    """A command that runs two `sleep MARKER` (one in the background) and outlives any test:
    `MARKER` is a unique duration (`unique_sleep`), so only this command's processes carry it."""
    return f"sleep {marker} & sleep {marker}; echo never"


def unique_sleep() -> str:
    """A sleep of about 400 s whose exact duration no other test on this machine uses."""
    return f"397.{secrets.randbelow(10**9):09d}"
