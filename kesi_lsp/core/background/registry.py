"""The background tasks of one session: at most four running, numbered, all stopped together.

Numbers count up per session (1, 2, 3, ...) and are never reused, so "task 2" in an old tool
result still means the same command. Ended tasks stay listed (with their exit code and last
output) until the session is reset; the model is told once about each that ended without it
seeing (`take_ended`). Listeners (the front ends) hear when a task starts and when it ends,
also long after the run that started it is over.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from kesi_lsp.core.background.task import BackgroundTask, TaskView

if TYPE_CHECKING:
    from kesi_lsp.core.sandbox.netns import SharedNetwork

MAX_RUNNING: Final = 4
MAX_KEPT: Final = 50
"""Ended tasks kept for listing and reading; the oldest ended ones are forgotten past it."""

TaskListener = Callable[[TaskView, bool], None]
"""Called with a task's view and whether it just started (True) or just ended (False)."""


class TaskLimitError(Exception):
    """A fifth task was asked for while four run (`running` are their views)."""

    def __init__(self, running: list[TaskView]) -> None:
        super().__init__(f"{len(running)} background tasks are running")
        self.running = running


@dataclass(eq=False)
class BackgroundTasks:
    """A session's background tasks, by id."""

    tasks: dict[str, BackgroundTask] = field(default_factory=dict)
    listeners: list[TaskListener] = field(default_factory=list)
    network: SharedNetwork | None = None
    """The network namespace the session's sandboxed commands share once a task runs
    (`sandbox/netns.py`), so a dev server and a later `curl` meet on 127.0.0.1."""
    _next: int = 1
    _stopping: set[asyncio.Task[None]] = field(default_factory=set)

    def running(self) -> list[BackgroundTask]:
        return [task for task in self.tasks.values() if task.running]

    def views(self) -> list[TaskView]:
        return [task.view() for task in self.tasks.values()]

    def get(self, task_id: str) -> BackgroundTask | None:
        return self.tasks.get(task_id.strip().removeprefix("#"))

    def check_room(self) -> None:
        """Raise TaskLimitError when `MAX_RUNNING` tasks already run."""
        running = self.running()
        if len(running) >= MAX_RUNNING:
            raise TaskLimitError([task.view() for task in running])

    def add(self, command: str, proc: asyncio.subprocess.Process, limit: float) -> BackgroundTask:
        """Keep and supervise a just-started process as the next task."""
        task = BackgroundTask(str(self._next), command, proc, limit, on_end=self._ended)
        self._next += 1
        self.tasks[task.id] = task
        self._forget_old()
        task.begin()
        self._tell(task.view(), started=True)
        return task

    def take_ended(self) -> list[BackgroundTask]:
        """Tasks that ended since the model last heard of them (each told once)."""
        ended = [t for t in self.tasks.values() if not t.running and not t.noted]
        for task in ended:
            task.noted = True
        return ended

    async def stop_all(self) -> None:
        """Stop every running task (each the seed's way) and let the shared network go."""
        running = self.running()
        if running:
            await asyncio.gather(*(task.stop() for task in running), return_exceptions=True)
        self._close_network()

    def stop_all_soon(self) -> None:
        """`stop_all` from synchronous code: in the background when an event loop runs, else
        at once with SIGKILL (nothing would be left to finish the polite way)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            for task in self.running():
                task.kill_now()
            self._close_network()
            return
        stopping = loop.create_task(self.stop_all(), name="kesi-tasks-stop")
        self._stopping.add(stopping)  # (asyncio keeps only a weak reference)
        stopping.add_done_callback(self._stopping.discard)

    def kill_all(self) -> None:
        """SIGKILL every running task's group now (the server is exiting)."""
        for task in self.running():
            task.kill_now()
        self._close_network()

    def reset(self) -> None:
        """The session is reset: stop every task; the new conversation hears nothing of them."""
        for task in self.tasks.values():
            task.noted = True
        self.stop_all_soon()

    def _ended(self, task: BackgroundTask) -> None:
        self._tell(task.view(), started=False)

    def _tell(self, view: TaskView, *, started: bool) -> None:
        for listener in list(self.listeners):
            with contextlib.suppress(Exception):  # a broken front end must not stop a task
                listener(view, started)

    def _forget_old(self) -> None:
        ended = [key for key, task in self.tasks.items() if not task.running]
        for key in ended[: max(0, len(self.tasks) - MAX_KEPT)]:
            del self.tasks[key]

    def _close_network(self) -> None:
        if self.network is not None:
            network, self.network = self.network, None
            network.close()
