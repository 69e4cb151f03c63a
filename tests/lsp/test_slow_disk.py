"""A slow disk never freezes the server: file I/O happens off the event loop.

The slow disk is a named pipe (FIFO) standing where a file should be: whoever reads it waits
until the test writes to it, here a second later, as on a stalled network filesystem. While
the agent's reads, the edit's save and its verification wait on it, the server must go on
answering the editor at once (here `kesi.cost`, timed every 50 ms).
"""

from __future__ import annotations

import asyncio
import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.core import permissions
from kesi_lsp.core.approval import Allowed, Choice, CommandRequest, EditRequest, Refused
from kesi_lsp.core.session import Session
from kesi_lsp.lsp.documents import DiskTexts
from tests.lsp.clients import kesi_client
from tests.lsp.conftest import BUGGY, FIXED, AgentCommand
from tests.lsp.reviews import answer, outcomes

pytestmark = pytest.mark.e2e

DELAY = 1.0  # how long each read of the slow file waits


class SlowDisk:
    """Feed `content` to every reader of the FIFO at `path`, each after DELAY seconds, until
    the FIFO is gone (replaced by a regular file) or `stop()` is called. `reading` is set
    once a reader waits on it."""

    def __init__(self, path: Path, content: str) -> None:
        os.mkfifo(path)
        self.path, self.content, self.fed = path, content.encode(), 0
        self.reading = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._feed, daemon=True)
        self._thread.start()

    def _open_for_a_reader(self) -> int | None:
        """A write end once a reader has the FIFO open (None: stopped). Opening without
        blocking fails until then, so this polls every 10 ms."""
        while not self._stop.is_set():
            try:
                return os.open(self.path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                time.sleep(0.01)
        return None

    def _feed(self) -> None:
        while (fd := self._open_for_a_reader()) is not None:
            try:
                if not stat.S_ISFIFO(os.fstat(fd).st_mode):
                    return  # the server replaced it with the saved file
                self.reading.set()
                time.sleep(DELAY)  # the slow disk itself
                os.set_blocking(fd, True)
                os.write(fd, self.content)
                self.fed += 1
            except BrokenPipeError:  # the last reader left while we waited
                pass
            finally:
                os.close(fd)
            # The reader gets the end of the file now; a writer opening before it closes
            # would feed it twice. A FIFO's writer cannot see a reader close (opening to
            # probe would itself end a new reader's file), so the device pauses, as the
            # real slow disk it imitates would between two accesses.
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)


async def slowest_answer(client: object, done: asyncio.Event) -> float:
    """The longest `kesi.cost` round trip while `done` is not set."""
    slowest = 0.0
    while not done.is_set():
        started = time.monotonic()
        await client.command("kesi.cost", {})  # type: ignore[attr-defined]
        slowest = max(slowest, time.monotonic() - started)
        await asyncio.sleep(0.05)
    return slowest


@pytest.mark.slow  # each disk access takes DELAY
async def test_reads_saves_and_checks_wait_off_the_event_loop(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """The agent reads an open file whose disk is slow, edits it, and the server saves and
    verifies it: each disk access waits a second, the server answers within a fraction."""
    calc = project / "calc.py"
    steps = [
        {"do": "read", "path": "calc.py"},
        {"do": "edit", "path": "calc.py", "old": "a - b", "new": "a + b"},
    ]
    async with kesi_client("vscode", [project], server=scripted_agent(steps)) as client:
        answer(client, accept=True)
        client.open(calc)  # the buffer holds BUGGY; from now on the disk is slow
        calc.unlink()
        disk = SlowDisk(calc, BUGGY)
        try:
            started = await client.command("kesi.ask", {"prompt": "fix add"})
            done = asyncio.Event()
            probe = asyncio.create_task(slowest_answer(client, done))
            finished = await client.wait_finished(started["runId"], 60)
            done.set()
            slowest = await probe
        finally:
            disk.stop()
        assert outcomes(client, started["runId"])[-1] == "applied once"
        assert calc.read_text() == FIXED == client.buffer(calc).text  # I1 still holds
        assert not stat.S_ISFIFO(calc.stat().st_mode)
        assert finished["status"] == "done"
        assert disk.fed >= 2, "the run waited on the slow disk"
        assert slowest < DELAY / 2, f"the server stalled for {slowest:.2f} s"


async def test_a_note_made_during_a_refresh_wins(tmp_path: Path) -> None:
    """A refresh that started before an edit was saved must not bring back the old text."""
    slow = tmp_path / "slow.txt"
    disk = SlowDisk(slow, "old\n")
    texts = DiskTexts()
    try:
        refresh = asyncio.create_task(texts.refresh([slow]))
        assert await asyncio.to_thread(disk.reading.wait, 10)  # the refresh waits on the disk
        texts.note(slow, "new\n")
        await refresh
    finally:
        disk.stop()
    assert disk.fed >= 1
    assert not texts.differs(slow, "new\n") and texts.differs(slow, "old\n")
    await asyncio.to_thread(slow.unlink)
    await texts.refresh([slow])
    assert texts.differs(slow, "new\n"), "a later refresh sees the file is gone"


async def test_the_permission_gate_classifies_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Classifying resolves paths on the filesystem: it runs in a worker thread."""
    threads: list[int] = []
    real = permissions.classify

    def recording(*args: Any, **kwargs: Any) -> permissions.CommandVerdict:
        threads.append(threading.get_ident())
        return real(*args, **kwargs)

    monkeypatch.setattr(permissions, "classify", recording)
    gate = permissions.PermissionGate(Session(root=tmp_path), NoApprover(), home=tmp_path)
    assert isinstance(await gate.authorize_command("ls"), Allowed)
    assert isinstance(await gate.authorize_command("rm -rf /"), Refused)
    assert len(threads) == 2 and threading.get_ident() not in threads


class NoApprover:
    async def approve_command(self, request: CommandRequest) -> Choice:
        raise AssertionError("nothing here needs a question")

    async def approve_edit(self, request: EditRequest) -> Choice:
        raise AssertionError("nothing here needs a question")
