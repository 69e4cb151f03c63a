"""One background task: a shell command left running, its output kept, its end recorded.

The process is started exactly as run_command starts a foreground one (the sandbox's argv, its
own process group, tied to the server's lifeline: `shell.spawn`); the difference is that
nobody waits for it. A supervisor (an asyncio task) reads its merged output into the task's
ring, watches for its exit, and stops it at the wall-clock limit or when asked, always the
seed's way: SIGTERM to the whole group, 3 s, SIGKILL (`shell.stop_group`), and the group is
cleaned up after a normal exit too, so a child it left behind does not outlive it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal

from kesi_lsp.core.background.ring import Ring
from kesi_lsp.core.sandbox.children import kill_group
from kesi_lsp.core.sandbox.groups import KILL_GRACE_SECONDS, READ_CHUNK, stop_group
from kesi_lsp.core.sandbox.pipes import settle

if TYPE_CHECKING:
    from kesi_lsp.core.network.proxy import Channel, Refusal

TaskState = Literal["running", "exited", "stopped", "timed_out"]
"""`exited`: it ended by itself; `stopped`: task_stop, kesi.stopTask, a reset, the folder or the
server going; `timed_out`: the wall-clock limit (`taskTimeout`) stopped it."""

POLL_SECONDS: Final = 0.1
IDLE_SECONDS: Final = 1.0
"""How often a reader waiting for output looks again anyway (every write and the end wake it)."""


@dataclass(frozen=True)
class TaskView:
    """What a listing shows of a task (`kesi.tasks`, the prompt, the notes)."""

    id: str
    command: str
    state: TaskState
    started: datetime.datetime
    exit_code: int | None
    last_line: str
    output_bytes: int
    limit: float
    ended: datetime.datetime | None = None


@dataclass(eq=False)
class BackgroundTask:
    """A running (or ended) background command of one session."""

    id: str
    command: str
    proc: asyncio.subprocess.Process
    limit: float
    ring: Ring = field(default_factory=Ring)
    cursor: int = 0
    """Where the model's last read ended (a stream position in `ring`)."""
    state: TaskState = "running"
    exit_code: int | None = None
    started: datetime.datetime = field(default_factory=lambda: datetime.datetime.now().astimezone())
    ended: datetime.datetime | None = None
    noted: bool = False
    """The model was told (or saw in a tool result) that it ended."""
    on_end: Callable[[BackgroundTask], None] | None = None
    watchers: list[Callable[[BackgroundTask], None]] = field(default_factory=list)
    """Also told when it ended (after `on_end`): its record in the audit log."""
    cleanups: list[Callable[[], Awaitable[object]]] = field(default_factory=list)
    """Closed when it ends (its channel to the network proxy)."""
    channel: Channel | None = None
    """Its channel to the network proxy (None: it has none), whose refusals the model is told."""
    hosts_told: set[str] = field(default_factory=set)
    """The refused hosts the model was already told of (each once)."""
    _began: float = field(default_factory=time.monotonic)
    _stop_reason: TaskState | None = None
    _wake: asyncio.Event = field(default_factory=asyncio.Event)
    _supervisor: asyncio.Task[None] | None = None
    _output: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def running(self) -> bool:
        return self.state == "running"

    def begin(self) -> None:
        """Start supervising (once, right after the process started)."""
        self._supervisor = asyncio.get_running_loop().create_task(
            self._supervise(), name=f"kesi-task-{self.id}"
        )

    def new_refusals(self) -> list[Refusal]:
        """The hosts its proxy refused that the model was not told of yet (now told)."""
        if self.channel is None:
            return []
        fresh = [r for host, r in self.channel.refused.items() if host not in self.hosts_told]
        self.hosts_told.update(r.host for r in fresh)
        return fresh

    def view(self) -> TaskView:
        return TaskView(
            self.id,
            self.command,
            self.state,
            self.started,
            self.exit_code,
            self.ring.last_line(),
            self.ring.written,
            self.limit,
            self.ended,
        )

    async def first_output(self, seconds: float, lines: int) -> None:
        """Wait until it printed `lines` lines, ended, or `seconds` passed (the start's answer)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while self.running and self.ring.since(self.cursor).data.count(b"\n") < lines:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            self._output.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._output.wait(), min(remaining, POLL_SECONDS))
        if not self.running and self._supervisor is not None:
            await asyncio.shield(self._supervisor)  # its last output is read

    async def output_after(self, cursor: int) -> None:
        """Wait until it printed past stream position `cursor`, or ended (a front end that
        shows its output as it comes, such as ACP's card of it)."""
        while self.running and self.ring.written <= cursor:
            self._output.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._output.wait(), IDLE_SECONDS)

    async def stop(self, reason: TaskState = "stopped") -> None:
        """Stop it (SIGTERM to the group, 3 s, SIGKILL) and wait until it is gone."""
        if self.running and self._stop_reason is None:
            self._stop_reason = reason
        self._wake.set()
        if self._supervisor is not None:
            await asyncio.shield(self._supervisor)

    async def ended_by_itself(self) -> None:
        """Wait until it ends, however long that takes (a test, or a front end that waits)."""
        if self._supervisor is not None:
            await asyncio.shield(self._supervisor)

    def kill_now(self) -> None:
        """The synchronous last resort (no event loop to wait in): SIGKILL the whole group."""
        if self.running:  # (any thread: the supervisor sees the exit at its next look)
            self._stop_reason = self._stop_reason or "stopped"
            kill_group(self.proc.pid)

    async def _supervise(self) -> None:
        proc = self.proc
        assert proc.stdout is not None
        reader = asyncio.ensure_future(self._drain(proc.stdout))
        try:
            await self._wait()
        finally:
            try:
                await stop_group(proc.pid)
                await asyncio.wait({reader}, timeout=KILL_GRACE_SECONDS)
            finally:
                if not reader.done():
                    reader.cancel()
                await settle(proc)
            if proc.returncode is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(proc.wait(), KILL_GRACE_SECONDS)
            for cleanup in self.cleanups:
                with contextlib.suppress(Exception):
                    await cleanup()
            self._ended()

    async def _wait(self) -> None:
        """Until the shell exits, a stop is asked for, or the wall-clock limit passes."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limit
        while self.proc.returncode is None and self._stop_reason is None:
            remaining = deadline - loop.time()
            if remaining <= 0:
                self._stop_reason = "timed_out"
                return
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), min(remaining, POLL_SECONDS))

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        with contextlib.suppress(OSError, ValueError):
            while chunk := await stream.read(READ_CHUNK):
                self.ring.write(chunk)
                self._output.set()

    def _ended(self) -> None:
        self.state = self._stop_reason or "exited"
        self.exit_code = self.proc.returncode
        self.ended = datetime.datetime.now().astimezone()
        self._output.set()
        for listener in (self.on_end, *self.watchers):
            if listener is not None:
                with contextlib.suppress(Exception):  # a broken listener must not hide the end
                    listener(self)

    @property
    def seconds(self) -> float:
        return time.monotonic() - self._began
