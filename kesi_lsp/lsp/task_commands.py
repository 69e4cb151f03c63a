"""`kesi.tasks`, `kesi.stopTask` and the `kesi/tasks` feed: background tasks in the editor
(issue 28).

Every line is the server's (`kesi_lsp.core`'s `task_line`, `task_log_line`), in the session's
locale and redacted like the model's results: a client only shows them. Clients with
`experimental.kesi.stream` get `kesi/tasks` whenever a task of a folder starts or ends (VS Code's
status bar item, the Neovim and Emacs output); log-only clients get the same `line` as a
`window/logMessage`. Stopping is the seed's: SIGTERM to the group, 3 s, SIGKILL; the answer
comes once the task is gone.
"""

from __future__ import annotations

import contextlib
from typing import Any, Final

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    BackgroundTask,
    Session,
    TaskView,
    redactor_for,
    task_line,
    task_log_line,
    task_state_words,
)
from kesi_lsp.lsp.args import CommandError, read_args
from kesi_lsp.lsp.commands import target
from kesi_lsp.lsp.contract import (
    FolderArgs,
    MessageResult,
    StopTaskArgs,
    TaskItem,
    TasksChangedParams,
    TasksResult,
)
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.server import KesiServer

TASKS: Final = "kesi.tasks"
STOP_TASK: Final = "kesi.stopTask"
TASKS_CHANGED: Final = "kesi/tasks"


def _items(ls: KesiServer, session: Session) -> tuple[list[TaskItem], list[str]]:
    """The session's tasks as the wire carries them, and their lines (redacted)."""
    locale = session.settings.locale
    redact = redactor_for(ls.host.runtime.environ, locale)
    items = [_item(view, locale, redact) for view in session.tasks.views()]
    lines = [item.line for item in items] or [text("background.list.empty", locale)]
    return items, lines


def _item(view: TaskView, locale: Locale, redact: Any) -> TaskItem:
    return TaskItem(
        task_id=view.id,
        command=redact(view.command),
        state=view.state,
        started=view.started.isoformat(timespec="seconds"),
        exit_code=view.exit_code,
        last_line=redact(view.last_line),
        line=redact(task_line(view, locale)),
    )


def tasks(ls: KesiServer, *args: Any) -> TasksResult:
    """The folder's background tasks (none when it has no session yet)."""
    folder, _ = target(ls, read_args(TASKS, args, FolderArgs).uri)
    session = ls.sessions.peek(folder)
    if session is None:
        lines = [text("background.list.empty", ls.locale_for(folder))]
        result = TasksResult(tasks=[], lines=lines)
    else:
        items, lines = _items(ls, session)
        result = TasksResult(tasks=items, lines=lines)
    if not ls.features.stream:
        ls.show("\n".join(result.lines))
    return result


async def stop_task(ls: KesiServer, *args: Any) -> MessageResult:
    """Stop one task; a task that is not there, or already ended, is said so in words."""
    arg = read_args(STOP_TASK, args, StopTaskArgs)
    folder, _ = target(ls, arg.uri)
    locale = ls.locale_for(folder)
    session = ls.sessions.peek(folder)
    task: BackgroundTask | None = session.tasks.get(arg.task_id) if session else None
    if task is None:
        message = text("background.stop.unknown", locale, id=arg.task_id)
        raise CommandError(message, "unknownTask", taskId=arg.task_id)
    if not task.running:
        state = task_state_words(task.view(), locale)
        message = text("background.stop.ended", locale, id=task.id, state=state)
    else:
        await task.stop()
        state = task_state_words(task.view(), locale)
        message = text("background.stop.done", locale, id=task.id, state=state)
    if not ls.features.stream:
        ls.show(message)
    return MessageResult(message=message)


class TaskFeed:
    """Tells the client when a session's task starts or ends."""

    def __init__(self, ls: KesiServer) -> None:
        self._ls = ls

    def attach(self, session: Session) -> None:
        session.tasks.listeners.append(lambda view, started: self._changed(session, view, started))

    def _changed(self, session: Session, view: TaskView, started: bool) -> None:
        ls = self._ls
        if ls.wire.closed:
            return
        locale = session.settings.locale
        line = redactor_for(ls.host.runtime.environ, locale)(
            task_log_line(view, locale, started=started)
        )
        with contextlib.suppress(Exception):  # a closing client must not disturb the task
            if ls.features.stream:
                items, lines = _items(ls, session)
                uri = path_to_uri(session.root)
                ls.wire.notify(
                    TASKS_CHANGED, TasksChangedParams(uri=uri, line=line, tasks=items, lines=lines)
                )
            else:
                params = types.LogMessageParams(type=types.MessageType.Info, message=line)
                ls.wire.notify(types.WINDOW_LOG_MESSAGE, params)


def register(server: KesiServer) -> None:
    feed = TaskFeed(server)
    previous = server.sessions.on_new

    def on_new(session: Session) -> None:
        if previous is not None:
            previous(session)
        feed.attach(session)

    server.sessions.on_new = on_new
    server.command(TASKS)(tasks)
    server.command(STOP_TASK)(stop_task)
