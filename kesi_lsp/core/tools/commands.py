"""The model's side of background tasks: run_command's `background: true`, task_output and
task_stop (the tool table's entries for them, `tools/dispatch.py`).

A background start goes through `shell.authorized` and `shell.start_process`, exactly the
foreground path (classifier, prompts, rules, grants, the session's sandbox), and answers after
its first output (up to `FIRST_SECONDS` or `FIRST_LINES` lines, or its end). The fifth running
task is refused before anyone is asked. Every text comes back through the dispatcher's
redactor like any tool result, clipped as command output is (8000 bytes, head and tail).

These are tools, so they live with the tools and not in `kesi_lsp.core.background`: the tasks
know nothing of the tools that start them. (Here in the background package they imported the
tools package, whose dispatch table imported them: importing them first failed.)
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.background.registry import MAX_RUNNING, BackgroundTasks
from kesi_lsp.core.background.ring import RING_BYTES, Slice
from kesi_lsp.core.background.task import BackgroundTask
from kesi_lsp.core.background.words import listing, state_words
from kesi_lsp.core.network.widen import widened
from kesi_lsp.core.sandbox.bubblewrap import BubblewrapSandbox
from kesi_lsp.core.sandbox.netns import open_network
from kesi_lsp.core.tools import shell
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult

FIRST_SECONDS: Final = 2.0
FIRST_LINES: Final = 20
STOP_LINES: Final = 20
MAX_LINES: Final = 10_000


async def run_command(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """run_command: in the foreground (the seed's), or started as a background task."""
    if not args.get("background"):
        return await shell.run_command(args, ctx)
    tasks = ctx.session.tasks
    launch = await shell.authorized(args, ctx, refuse=lambda: _refused(tasks, ctx.locale))
    if isinstance(launch, ToolResult):
        return launch
    failed = await _shared_network(ctx)
    if failed is not None:
        return failed
    limit = ctx.session.settings.task_timeout
    opened = (
        await ctx.network.open(ctx.session, ctx.sandbox, seconds=limit) if ctx.network else None
    )
    proc = await shell.start_process(launch, ctx, opened)
    if isinstance(proc, ToolResult):
        if launch.audit is not None:
            launch.audit.done(launch.command)
        if opened is not None:
            await opened.channel.close()
        return proc
    task = tasks.add(launch.command, proc, limit)
    _audited(task, launch, ctx)  # (before any await: a quick task must not end unrecorded)
    if opened is not None:  # its way to the proxy closes when it ends
        task.channel = opened.channel
        task.cleanups.append(opened.channel.close)
    await task.first_output(FIRST_SECONDS, FIRST_LINES)
    return await _told_network(task, _started(task, launch.ran_as, ctx.locale), ctx)


async def _told_network(task: BackgroundTask, result: ToolResult, ctx: ToolContext) -> ToolResult:
    """`result` with the hosts the task's proxy refused since the model last heard, and (mode
    `ask`) the user's answer for each, asked now, as after a foreground command: a task's
    request is refused at once (a 403 in its output), never held until someone answers, and
    a host allowed here is reached by the task's very next request."""
    refusals = task.new_refusals()
    if not refusals or task.channel is None:
        return result
    audit = shell.network_audit(ctx, task.command)  # recorded as a foreground command's
    told = await widened(refusals, ctx.gate, task.channel.limits, ctx.emit, audit)
    return ToolResult(f"{result.text}\n{told}", result.is_error, result.summary)


def _audited(task: BackgroundTask, launch: shell.Launch, ctx: ToolContext) -> None:
    """The audit log's records of a task: its start (the command's, with the task's id) now,
    its end (`task`: how, after how long, how much output) whenever it comes."""
    trail = ctx.audit
    if launch.audit is None or trail is None:
        return
    launch.audit.as_task(task.id)

    def ended(task: BackgroundTask) -> None:
        trail.task_ended(
            task.id,
            task.command,
            state=task.state,
            exit_code=task.exit_code,
            duration_ms=round(task.seconds * 1000),
            bytes_out=task.ring.written,
            limit_s=task.limit,
        )

    task.watchers.append(ended)


async def _shared_network(ctx: ToolContext) -> ToolResult | None:
    """Under bubblewrap, the session's commands share one network namespace from its first
    task on (`sandbox/netns.py`), so the task's server answers a later `curl`."""
    tasks, sandbox = ctx.session.tasks, ctx.sandbox
    if not isinstance(sandbox, BubblewrapSandbox) or (tasks.network and not tasks.network.closed):
        return None
    try:
        network = await asyncio.to_thread(open_network, sandbox.program)
    except OSError as exc:
        return ToolResult(text("background.no_network", ctx.locale, error=exc), True)
    if tasks.network is not None and not tasks.network.closed:  # made meanwhile
        network.close()
    else:
        tasks.network = network
    return None


def _refused(tasks: BackgroundTasks, locale: Locale) -> ToolResult | None:
    running = [task.view() for task in tasks.running()]
    if len(running) < MAX_RUNNING:
        return None
    words = text("background.limit", locale, count=MAX_RUNNING, tasks=listing(running, locale))
    return ToolResult(words, True)


def _started(task: BackgroundTask, ran_as: str, locale: Locale) -> ToolResult:
    view = task.view()
    fields = {"id": view.id, "command": view.command}
    if task.running:
        head = text("background.started", locale, **fields)
    else:
        task.noted = True  # the model sees its end right here
        state = state_words(view, locale)
        head = text("background.ended_at_once", locale, state=state, **fields)
    body = _body(_read_new(task), locale)
    how = text("background.how", locale, id=view.id) if task.running else ""
    failed = not task.running and view.exit_code != 0
    return ToolResult("\n".join(p for p in (ran_as.rstrip("\n"), head, body, how) if p), failed)


async def task_output(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """New output since the last read (or the last `lines` lines), and the task's state."""
    task = _find(args["task_id"], ctx)
    if isinstance(task, ToolResult):
        return task
    lines = args.get("lines")
    if lines is not None:
        piece = task.ring.tail_lines(max(1, min(int(lines), MAX_LINES)))
        task.cursor = max(task.cursor, task.ring.written)
    else:
        piece = _read_new(task)
    if not task.running:
        task.noted = True
    result = ToolResult(_header(task, ctx.locale) + "\n" + _body(piece, ctx.locale), False)
    return await _told_network(task, result, ctx)


async def task_stop(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Stop the task (SIGTERM to its group, 3 s, SIGKILL) and show its last output."""
    task = _find(args["task_id"], ctx)
    if isinstance(task, ToolResult):
        return task
    locale = ctx.locale
    if not task.running:
        task.noted = True
        view = task.view()
        state = state_words(view, locale)
        words = text(
            "background.already_ended", locale, id=view.id, command=view.command, state=state
        )
        return ToolResult(words, False)
    await task.stop()
    task.noted = True
    view = task.view()
    state = state_words(view, locale)
    head = text("background.stopped_now", locale, id=view.id, command=view.command, state=state)
    task.cursor = task.ring.written
    result = ToolResult(head + "\n" + _body(task.ring.tail_lines(STOP_LINES), locale), False)
    return await _told_network(task, result, ctx)


def _find(task_id: str, ctx: ToolContext) -> BackgroundTask | ToolResult:
    tasks = ctx.session.tasks
    task = tasks.get(task_id)
    if task is not None:
        return task
    known = listing(tasks.views(), ctx.locale)
    return ToolResult(text("background.unknown", ctx.locale, id=task_id, tasks=known), True)


def _read_new(task: BackgroundTask) -> Slice:
    piece = task.ring.since(task.cursor)
    task.cursor = piece.end
    return piece


def _header(task: BackgroundTask, locale: Locale) -> str:
    view = task.view()
    state = state_words(view, locale)
    return text("background.header", locale, id=view.id, command=view.command, state=state)


def _body(piece: Slice, locale: Locale) -> str:
    """The output as the model gets command output: clipped, with what was dropped said."""
    if not piece.data:
        return text("background.no_new_output", locale)
    body = shell.clip_output(piece.data, locale).rstrip("\n")
    if piece.dropped:
        body = (
            text("background.dropped", locale, count=piece.dropped, limit=RING_BYTES) + "\n" + body
        )
    return body
