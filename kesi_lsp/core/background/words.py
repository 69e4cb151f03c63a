"""What is said about background tasks: to the model (results, notes, the system prompt) and to
the user (the listing's lines, the log's lines), in the session's locale.

Every listing line and note is built here once, so `kesi.tasks`, the log, ACP and the model
read the same words for the same state.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.background.task import BackgroundTask, TaskView

NOTE_LINES: Final = 5
COMMAND_CHARS: Final = 120


def short(command: str) -> str:
    """A command on one line, clipped for a listing (the model's results keep it whole)."""
    flat = " ".join(command.split())
    return flat if len(flat) <= COMMAND_CHARS else flat[: COMMAND_CHARS - 1] + "…"


def state_words(view: TaskView, locale: Locale) -> str:
    """`running`, `exited with code 1`, `ended by signal 9`, `stopped`, `stopped after ...`."""
    if view.state == "running":
        return text("background.state.running", locale)
    if view.state == "timed_out":
        return text("background.state.timed_out", locale, seconds=f"{view.limit:g}")
    if view.state == "stopped":
        return text("background.state.stopped", locale)
    code = view.exit_code
    if code is not None and code < 0:
        return text("background.state.signal", locale, signal=-code)
    return text("background.state.exited", locale, code="?" if code is None else code)


def clock(moment: datetime.datetime) -> str:
    return moment.strftime("%H:%M:%S")


def task_line(view: TaskView, locale: Locale) -> str:
    """One listing line: `#1 python -m http.server · running · started 12:03:04 · Serving ...`."""
    last = text("background.line.last", locale, line=view.last_line[:200]) if view.last_line else ""
    return text(
        "background.line",
        locale,
        id=view.id,
        command=short(view.command),
        state=state_words(view, locale),
        started=clock(view.started),
        last=last,
    )


def log_line(view: TaskView, locale: Locale, *, started: bool) -> str:
    """The log's line when a task starts or ends."""
    if started:
        return text("background.log.started", locale, id=view.id, command=short(view.command))
    state = state_words(view, locale)
    return text(
        "background.log.ended", locale, id=view.id, state=state, command=short(view.command)
    )


def listing(views: Sequence[TaskView], locale: Locale) -> str:
    """`1 `cmd` (running), 2 ...` for the model's error messages; `none` when empty."""
    if not views:
        return text("background.none", locale)
    sep = text("common.list_sep", locale)
    return sep.join(f"{v.id} `{short(v.command)}` ({state_words(v, locale)})" for v in views)


def ended_note(tasks: Sequence[BackgroundTask], locale: Locale) -> str | None:
    """Before a request: the tasks that ended since the last one, with their last lines."""
    if not tasks:
        return None
    lines = [text("background.note.title", locale)]
    for task in tasks:
        view = task.view()
        fields = {"id": view.id, "command": short(view.command), "state": state_words(view, locale)}
        tail = task.ring.tail_lines(NOTE_LINES).data.decode("utf-8", "replace").rstrip("\n")
        if not tail.strip():
            lines.append(text("background.note.no_output", locale, **fields))
            continue
        lines.append(text("background.note.task", locale, **fields))
        lines.extend("    " + line[:300] for line in tail.splitlines())
    return "\n".join(lines)


def running_line(views: Sequence[TaskView], locale: Locale) -> str | None:
    """The system prompt's line naming what runs in the background (None: nothing)."""
    running = [v for v in views if v.state == "running"]
    if not running:
        return None
    sep = text("common.list_sep", locale)
    tasks = sep.join(
        text(
            "background.prompt.task",
            locale,
            id=v.id,
            command=short(v.command),
            started=clock(v.started),
        )
        for v in running
    )
    return text("background.prompt.running", locale, tasks=tasks)
