"""Agent runs in the background: one per session at a time, each stoppable (design §2.3, §2.8).

A command answers with a `runId` at once (Helix gives requests 20 s) and the run goes on as
an asyncio task. pygls 2 cannot cancel an executeCommand coroutine through `$/cancelRequest`,
so runs are kept here, by id and by progress token, and stopped with `Task.cancel()`, which
the core turns into the seed's Ctrl-C (stream closed, process group killed, history sealed).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kesi_lsp.core.session import Session
from kesi_lsp.lsp.folders import Folder

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Run:
    """One agent run: where it works, what it was asked, and the task doing it."""

    folder: Folder
    session: Session
    prompt: str
    id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    progress_token: str = field(default_factory=lambda: f"kesi-run-{uuid.uuid4().hex}")
    edits: list[Path] = field(default_factory=list)
    task: asyncio.Task[None] | None = None
    agent: asyncio.Task[Any] | None = None  # the core loop inside `task`
    cancel_requested: bool = False

    @property
    def live(self) -> bool:
        return self.task is not None and not self.task.done()

    def cancel(self) -> bool:
        """Stop the run like Ctrl-C; True when it was still running."""
        if not self.live:
            return False
        self.cancel_requested = True
        target = self.agent if self.agent is not None and not self.agent.done() else self.task
        if target is not None:
            target.cancel()
        return True


class Runs:
    """The live runs of this server, by id, by progress token and by session."""

    def __init__(self) -> None:
        self._runs: dict[str, Run] = {}

    def active_in(self, folder: Folder) -> Run | None:
        return next(
            (r for r in self._runs.values() if r.live and r.folder.path == folder.path), None
        )

    def get(self, run_id: str) -> Run | None:
        return self._runs.get(run_id)

    def by_token(self, token: object) -> Run | None:
        return next((r for r in self._runs.values() if r.progress_token == token), None)

    def live(self) -> list[Run]:
        return [r for r in self._runs.values() if r.live]

    def start(self, run: Run, body: Callable[[Run], Coroutine[Any, Any, None]]) -> Run:
        """Start `body(run)` as a task; the run forgets itself when the task ends."""
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
