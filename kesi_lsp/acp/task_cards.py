"""A session's background tasks as ACP tool call cards (issue 28).

ACP has no task list of its own, so a task is shown the way an agent shows work in progress: a
`tool_call` card of kind `execute` that opens when the task starts, stays `in_progress` while it
runs (also after the prompt turn that started it was answered), shows its newest output through
`tool_call_update`s as it comes, and is `completed` when it ends by itself with code 0 or is
stopped, `failed` when it exits with another code, dies of a signal or reaches the wall-clock
limit. The run_command call that started it has its own card, completed with the start's answer.

A chatty task must not flood the client: its card is updated at most every `EVERY_SECONDS`
with the last `SHOWN_LINES` lines (at most `SHOWN_BYTES`), as a terminal would show them: ACP's
`content` replaces the card's content, and `_meta.kesi.appended` carries only what is new, for a
client that appends. Output is redacted like the model's results; every line is the server's
(the story's task lines in `_meta.kesi.lines`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Final

from acp.helpers import start_tool_call, text_block, tool_content, update_tool_call
from acp.schema import ToolCallStatus

from kesi_lsp.acp.client import AcpClient
from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.acp.updates import told
from kesi_lsp.catalog import text
from kesi_lsp.core import BackgroundTask, TaskView, task_log_line

log = logging.getLogger(__name__)

EVERY_SECONDS: Final = 0.5
SHOWN_LINES: Final = 40
SHOWN_BYTES: Final = 8000
MAX_TITLE: Final = 120


def card_id(task_id: str) -> str:
    """A task's card id (unique in its session: task ids are never reused)."""
    return f"kesi-task-{task_id}"


def status_of(view: TaskView) -> ToolCallStatus:
    if view.state == "running":
        return "in_progress"
    if view.state == "stopped" or (view.state == "exited" and view.exit_code == 0):
        return "completed"
    return "failed"


class TaskCards:
    """Opens, feeds and closes the cards of one session's tasks."""

    def __init__(self, client: AcpClient, session: AcpSession, redact: Callable[[str], str]):
        self._client = client
        self._session = session
        self._redact = redact
        self._pumps: set[asyncio.Task[None]] = set()

    def attach(self) -> None:
        self._session.core.tasks.listeners.append(self._changed)

    def _changed(self, view: TaskView, started: bool) -> None:
        if not started:
            return  # the pump sees the end and closes the card
        task = self._session.core.tasks.get(view.id)
        if task is None:
            return
        self._put(self._opened(view))
        pump = asyncio.get_running_loop().create_task(self._pump(task), name=f"acp-task-{view.id}")
        self._pumps.add(pump)  # (asyncio keeps only a weak reference)
        pump.add_done_callback(self._pumps.discard)

    def _opened(self, view: TaskView) -> Any:
        locale = self._session.core.settings.locale
        command = self._redact(view.command)
        flat = " ".join(command.split())
        shown = flat if len(flat) <= MAX_TITLE else flat[: MAX_TITLE - 1] + "…"
        start = start_tool_call(
            card_id(view.id),
            text("acp.tool.task", locale, id=view.id, command=shown),
            kind="execute",
            status="in_progress",
            raw_input={"taskId": view.id, "command": command},
        )
        line = self._redact(task_log_line(view, locale, started=True))
        return told(start, [line], taskId=view.id, state=view.state)

    async def _pump(self, task: BackgroundTask) -> None:
        """Until the task ends: its newest output on its card, at most every EVERY_SECONDS."""
        cursor = 0
        try:
            await task.output_after(cursor)
            while task.running:
                cursor = self._show(task, cursor, None)
                await asyncio.sleep(EVERY_SECONDS)  # a throttle: the output gathers meanwhile
                await task.output_after(cursor)
            await task.ended_by_itself()
            self._show(task, cursor, task.view())
        except Exception:  # a card that cannot be drawn must not disturb the task
            log.exception("the card of task %s", task.id)

    def _show(self, task: BackgroundTask, cursor: int, ended: TaskView | None) -> int:
        """One update of the card: the output's tail, what is new since `cursor`, and at the
        end its status and the story's end line. Answers the new cursor."""
        ring = task.ring
        new = ring.since(cursor)
        locale = self._session.core.settings.locale
        last = ring.tail_lines(SHOWN_LINES)
        tail = last.data[-SHOWN_BYTES:]
        shown = self._redact(tail.decode("utf-8", "replace")).rstrip("\n")
        if shown and last.end - len(tail) > 0:  # it printed more than the card shows
            shown = text("acp.task.dropped", locale) + "\n" + shown
        content = [tool_content(text_block(shown))] if shown else []
        appended = self._redact(new.data[-SHOWN_BYTES:].decode("utf-8", "replace"))
        more: dict[str, Any] = {"taskId": task.id, "appended": appended}
        if ended is None:
            update = update_tool_call(card_id(task.id), content=content)
            self._put(told(update, [], state="running", **more))
            return new.end
        line = self._redact(task_log_line(ended, locale, started=False))
        update = update_tool_call(
            card_id(task.id),
            status=status_of(ended),
            content=content,
            raw_output={"state": ended.state, "exitCode": ended.exit_code},
        )
        self._put(told(update, [line], state=ended.state, exitCode=ended.exit_code, **more))
        return new.end

    def _put(self, update: Any) -> None:
        with contextlib.suppress(Exception):  # a closing client must not disturb the task
            self._client.update(self._session.id, update)

    async def close(self) -> None:
        """Wait for the cards of tasks that are ending to be closed (the connection ends)."""
        if self._pumps:
            await asyncio.wait(set(self._pumps), timeout=EVERY_SECONDS * 4)
