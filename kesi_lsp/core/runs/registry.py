"""Agent runs in the background: one per session at a time, each stoppable (design §2.3, §2.8).

A front end answers the request that starts a run at once (Helix gives an LSP request 20 s; an
ACP prompt waits for the end) and the run goes on as an asyncio task. Runs are kept here, by
id, and stopped with `Task.cancel()`, which the core turns into the seed's Ctrl-C (stream
closed, process group killed, history sealed).

"One at a time" is per `Session`: one conversation cannot take two turns at once. The LSP
server keeps one session per workspace folder, so there it is one run per folder; an ACP client
may open several sessions (threads) in one folder, and each has its own conversation, read
records and grants, so they may work side by side: an edit one computed on text another
changed since is refused as stale by the read records, never written over.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.session import Session

if TYPE_CHECKING:
    from kesi_lsp.core.runs.agent import AgentRunner

log = logging.getLogger(__name__)


class SessionBusyError(Exception):
    """A run was started in a session that already has one (`active` is that run)."""

    def __init__(self, active: Run) -> None:
        super().__init__(f"run {active.id} is still going in this session ({active.root})")
        self.active = active


@dataclass(eq=False)
class Run:
    """One agent run: the session it works in, what it was asked, and the task doing it."""

    session: Session
    prompt: str
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    edits: list[Path] = field(default_factory=list)  # every file an edit landed in, in order
    task: asyncio.Task[RunFinished] | None = None
    agent: asyncio.Task[RunFinished] | None = None  # the core loop inside `task`
    runner: AgentRunner | None = None  # what runs instead of the agent (kesi.compact's summary)
    title: str | None = None  # what the user asked, for its change set's row (None: the prompt's)
    place: str | None = None  # where they asked it ("calc.py:2")

    @property
    def root(self) -> Path:
        return self.session.root

    @property
    def live(self) -> bool:
        return self.task is not None and not self.task.done()

    def edited(self) -> list[str]:
        """The run's edited files, relative to its folder, in the order they were first edited."""
        seen: dict[str, None] = {}
        for path in self.edits:
            seen.setdefault(path.relative_to(self.root).as_posix(), None)
        return list(seen)

    def cancel(self) -> bool:
        """Stop the run like Ctrl-C; True when it was still running."""
        if not self.live:
            return False
        target = self.agent if self.agent is not None and not self.agent.done() else self.task
        if target is not None:
            target.cancel()
        return True


RunBody = Callable[[Run], Coroutine[Any, Any, RunFinished]]


class Runs:
    """The live runs of one front end, by id, by session and by folder."""

    def __init__(self) -> None:
        self._runs: dict[str, Run] = {}

    def active_in(self, root: Path) -> Run | None:
        """A live run in folder `root` (resolved), if any (the LSP server's one session there)."""
        return next((r for r in self._runs.values() if r.live and r.root == root), None)

    def active_for(self, session: Session) -> Run | None:
        """The live run of `session`, if any."""
        return next((r for r in self._runs.values() if r.live and r.session is session), None)

    def get(self, run_id: str) -> Run | None:
        return self._runs.get(run_id)

    def live(self) -> list[Run]:
        return [r for r in self._runs.values() if r.live]

    def start(self, run: Run, body: RunBody) -> Run:
        """Start `body(run)` as a task; the run forgets itself when the task ends.

        Raises SessionBusyError when the session already has a live run: one at a time."""
        busy = self.active_for(run.session)
        if busy is not None:
            raise SessionBusyError(busy)
        self._runs[run.id] = run
        run.task = asyncio.get_running_loop().create_task(body(run), name=f"kesi-run-{run.id}")
        run.task.add_done_callback(lambda _: self._runs.pop(run.id, None))
        return run

    async def stop_all(self, grace: float) -> None:
        """Cancel every live run and wait (at most `grace` s) for them to wind down."""
        tasks = [r.task for r in self.live() if r.task is not None]
        for run in self.live():
            run.cancel()
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                log.warning("run %s did not stop within %.0f s", task.get_name(), grace)
                task.cancel()
