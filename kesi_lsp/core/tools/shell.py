"""run_command (seed Day 11): one shell command, and nothing left behind.

The rules are the seed's: `/bin/sh -c` (through the sandbox seam), no stdin, stdout and stderr
merged in the order the pipe received them, its own process group, read while it runs. The
command stops at the time limit (SIGTERM to the whole group, 3 s grace, SIGKILL) or when it has
printed 1,000,000 bytes; the whole group is cleaned up after a normal exit too, and when the task
running the tool is cancelled. The model gets at most 8000 bytes (head and tail, with a note of
how much was left out) and always the exit code.

In Python 3.11 `Process.wait()` also waits for the pipes to close, which a background child
(`sleep 25 &`) keeps open; so the exit is detected from `returncode`, polled while the output is
read, exactly like the seed's `proc.poll()`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Refused
from kesi_lsp.core.diagnostics.watch import Before, disk_signatures
from kesi_lsp.core.events import CommandFinished, Notice
from kesi_lsp.core.network.widen import widened
from kesi_lsp.core.paths import relative
from kesi_lsp.core.sandbox.env import passed_variables, scrub_environment
from kesi_lsp.core.sandbox.groups import (
    KILL_GRACE_SECONDS,
    POLL_SECONDS,
    READ_CHUNK,
    settle,
    spawn,
    stop_group,
)
from kesi_lsp.core.sandbox.hidden import explain
from kesi_lsp.core.summary import summarize
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult

if TYPE_CHECKING:
    from kesi_lsp.core.network.access import OpenChannel

MAX_CAPTURE_BYTES: Final = 1_000_000
MAX_OUTPUT_BYTES: Final = 8000

Explain = Callable[[str], list[str]]


@dataclass
class _Capture:
    """What the command printed, up to the capture cap."""

    data: bytearray = field(default_factory=bytearray)
    overflow: bool = False


async def _drain(stream: asyncio.StreamReader, capture: _Capture) -> None:
    """Read whatever is available (like the seed's read1) until EOF or the capture cap."""
    with contextlib.suppress(OSError, ValueError):
        while chunk := await stream.read(READ_CHUNK):
            room = MAX_CAPTURE_BYTES - len(capture.data)
            if len(chunk) > room:
                capture.data += chunk[:room]
                capture.overflow = True
                return
            capture.data += chunk


@dataclass(frozen=True)
class _Outcome:
    output: bytes
    returncode: int | None
    timed_out: bool
    overflow: bool


async def _wait_exit(
    proc: asyncio.subprocess.Process, reader: asyncio.Task[None], capture: _Capture, limit: float
) -> bool:
    """Wait until the shell exits, the capture overflows or the time is up (returns True)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    waiter = asyncio.ensure_future(proc.wait())
    try:
        while proc.returncode is None and not capture.overflow:
            remaining = deadline - loop.time()
            if remaining <= 0:
                return True
            pending: set[asyncio.Future[Any]] = {waiter}
            if not reader.done():
                pending.add(reader)
            await asyncio.wait(
                pending, timeout=min(POLL_SECONDS, remaining), return_when=asyncio.FIRST_COMPLETED
            )
        return False
    finally:
        waiter.cancel()


async def _finish(proc: asyncio.subprocess.Process, reader: asyncio.Task[None]) -> None:
    """After the shell is gone or stopped: clean up its group, collect the last output, reap."""
    try:
        await stop_group(proc.pid)
        await asyncio.wait({reader}, timeout=KILL_GRACE_SECONDS)
    finally:
        if not reader.done():  # something escaped the group and holds the pipe
            reader.cancel()
        await settle(proc)
    if proc.returncode is None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(proc.wait(), KILL_GRACE_SECONDS)


async def supervise(proc: asyncio.subprocess.Process, limit: float) -> _Outcome:
    """Read `proc`'s merged output until it ends, overflows or times out; never leave it behind."""
    assert proc.stdout is not None
    capture = _Capture()
    reader = asyncio.create_task(_drain(proc.stdout, capture))
    timed_out = False
    try:
        timed_out = await _wait_exit(proc, reader, capture, limit)
    finally:
        await _finish(proc, reader)
    return _Outcome(bytes(capture.data), proc.returncode, timed_out, capture.overflow)


def clip_output(data: bytes, locale: Locale) -> str:
    """At most 8000 bytes: the first and last 4000, with how many bytes were left out."""
    if len(data) <= MAX_OUTPUT_BYTES:
        return data.decode("utf-8", "replace")
    half = MAX_OUTPUT_BYTES // 2
    head = data[:half].decode("utf-8", "replace")
    tail = data[-half:].decode("utf-8", "replace")
    omitted = text("tools.run.omitted", locale, count=len(data) - MAX_OUTPUT_BYTES)
    return f"{head}\n{omitted}\n{tail}"


def _seconds(value: float) -> str:
    return f"{value:g}"


def report(
    outcome: _Outcome, timeout: float, locale: Locale, *, explain: Explain | None = None
) -> ToolResult:
    """The seed's result: output (or "no output") then the notes, exit code always last.

    `explain` adds the sandbox's notes about what it hid from the command (`sandbox.hidden`),
    read from the same clipped text the model gets.
    """
    notes: list[str] = []
    if outcome.timed_out:
        notes.append(text("tools.run.timed_out", locale, seconds=_seconds(timeout)))
    if outcome.overflow:
        notes.append(text("tools.run.overflow", locale, limit=MAX_CAPTURE_BYTES))
    code = outcome.returncode
    if code is not None and code < 0:
        notes.append(text("tools.run.signal", locale, signal=-code))
    notes.append(text("tools.run.exit_code", locale, code="?" if code is None else code))
    joined = ("" if locale == "zh-TW" else " ").join(notes)
    if not outcome.output:
        body = text("tools.run.no_output", locale) + ("" if locale == "zh-TW" else " ")
    else:
        body = clip_output(outcome.output, locale)
        if not body.endswith("\n"):
            body += "\n"
        if explain is not None:
            body += "".join(note + "\n" for note in explain(body))
    is_error = outcome.timed_out or outcome.overflow or code != 0
    return ToolResult(body + joined, is_error)


class _Audit:
    """The command's record in the audit log: how the gate decided, and how it ended."""

    def __init__(self, ctx: ToolContext, command: str) -> None:
        self.ctx, self.command = ctx, command
        self.decision = ctx.gate.decision(command)
        self.started = time.monotonic()

    def done(self, actual: str | None = None, outcome: _Outcome | None = None) -> None:
        """The command ended (`actual`: the text that ran; None: it never started)."""
        ran = actual is not None
        self._record(
            ran_as=actual,
            sandbox=self.ctx.sandbox.kind if ran else None,
            exit_code=outcome.returncode if outcome is not None else None,
            duration_ms=round((time.monotonic() - self.started) * 1000) if ran else None,
            bytes_out=len(outcome.output) if outcome is not None else None,
            timed_out=outcome.timed_out if outcome is not None else None,
        )

    def as_task(self, task: str) -> None:
        """The command was started as background `task` (its end is the task's own record)."""
        self._record(sandbox=self.ctx.sandbox.kind, task=task)

    def _record(self, **fields: Any) -> None:
        """The command's record: the gate's decision, and `fields` (how it ran or started)."""
        trail, decision = self.ctx.audit, self.decision
        if trail is None or decision is None:
            return
        trail.command(
            self.command,
            verdict=decision.verdict,
            reason=decision.reason,
            decided_by=decision.by,
            answer=decision.answer,
            **fields,
        )


@dataclass(frozen=True)
class Launch:
    """A command the gate allowed, ready to start: the text that runs (`gate.runs_as`), the
    line that says so when it differs from what the model asked (`ran_as`), the environment."""

    command: str
    ran_as: str
    env: dict[str, str]
    audit: _Audit | None = None
    """The command's audit record, written once it ended (`run_command`)."""


async def authorized(
    args: dict[str, Any],
    ctx: ToolContext,
    *,
    refuse: Callable[[], ToolResult | None] = lambda: None,
) -> Launch | ToolResult:
    """The gate's answer for `args["command"]`: a `Launch`, or the result that refuses it.

    `refuse` is asked first, before anyone is asked anything: a background start past the
    limit of running tasks is refused without a prompt the user would answer for nothing.
    """
    command = args["command"]
    if not command.strip():
        return ToolResult(text("tools.run.empty", ctx.locale), True)
    refused = refuse()
    if refused is not None:
        return refused
    answer = await ctx.gate.authorize_command(command)
    audit = _Audit(ctx, command)
    if isinstance(answer, Refused):
        audit.done()
        return ToolResult(answer.message, True)
    actual = ctx.gate.runs_as(command)
    ran_as = _ran_as(ctx, command, actual)
    env = scrub_environment(ctx.sandbox.environment(ctx.environ, ctx.session.root))
    env |= passed_variables(ctx.environ, ctx.session.settings.pass_env)
    return Launch(actual, ran_as, env, audit)


async def start_process(
    launch: Launch, ctx: ToolContext, opened: OpenChannel | None = None
) -> asyncio.subprocess.Process | ToolResult:
    """Start an allowed command in the session's sandbox (its own group, tied to the server),
    with its way to the network proxy (`opened`) and, once the session runs a background task,
    in the session's shared network namespace (`sandbox/netns.py`); the result that says why
    when it could not start."""
    root = ctx.session.root
    shared = ctx.session.tasks.network
    shared = None if shared is None or shared.closed else shared
    bridge = opened.bridge if opened is not None else None
    try:
        if shared is None and bridge is None:
            argv = ctx.sandbox.argv(launch.command, root)
        else:
            argv = ctx.sandbox.argv(launch.command, root, network=bridge, shared=shared)
        return await spawn(argv, root, launch.env, shared.fds() if shared is not None else ())
    except (OSError, ValueError) as exc:
        error = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        return ToolResult(text("tools.run.launch_failed", ctx.locale, error=error), True)


async def run_command(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Ask the gate, then run the command in the workspace and report what happened."""
    launch = await authorized(args, ctx)
    if isinstance(launch, ToolResult):
        return launch
    timeout = ctx.session.settings.command_timeout
    watched = await _watch(ctx)
    opened = await ctx.network.open(ctx.session, ctx.sandbox) if ctx.network else None
    try:
        proc = await start_process(launch, ctx, opened)
        if isinstance(proc, ToolResult):
            if launch.audit is not None:
                launch.audit.done(launch.command)
            return proc
        outcome = await supervise(proc, timeout)
        if launch.audit is not None:
            launch.audit.done(launch.command, outcome)
    finally:
        refusals = await opened.channel.close() if opened is not None else []
    result = report(outcome, timeout, ctx.locale, explain=explainer(ctx))
    ran_as = launch.ran_as
    result = ToolResult(ran_as + result.text, result.is_error) if ran_as else result
    if opened is not None and (
        told := await widened(
            refusals, ctx.gate, opened.channel.limits, ctx.emit, network_audit(ctx, launch.command)
        )
    ):
        result = ToolResult(f"{result.text}\n{told}", result.is_error, result.summary)
    return await _reported(ctx, launch.command, result, outcome, watched)


def network_audit(ctx: ToolContext, command: str) -> Callable[[str, bool, str, str | None], None]:
    """Each refused host and the user's answer, recorded in the audit log with the command
    (a foreground command's after it ran, a background task's when the model hears of it)."""

    def record(host: str, allowed: bool, decided_by: str, answer: str | None) -> None:
        if ctx.audit is not None:
            ctx.audit.network_grant(
                host, allowed=allowed, decided_by=decided_by, answer=answer, command=command
            )

    return record


_Watched = tuple[dict[Path, Any], Before] | None


async def _watch(ctx: ToolContext) -> _Watched:
    """The open files' disk state and diagnostics before the command (None: not watched)."""
    if ctx.problems is None or not (opened := ctx.problems.open_files()):
        return None
    signatures = await asyncio.to_thread(disk_signatures, opened)
    return signatures, await ctx.problems.before(opened)


async def _reported(
    ctx: ToolContext, command: str, result: ToolResult, outcome: _Outcome, watched: _Watched
) -> ToolResult:
    """Tell verification what ran; add what the editor newly reports in the open files the
    command changed (a formatter, a code generator, `git checkout`)."""
    changed: list[Path] = []
    if watched is not None:
        now = await asyncio.to_thread(disk_signatures, list(watched[0]))
        changed = [path for path, before in watched[0].items() if now.get(path) != before]
    rels = tuple(relative(ctx.session.root, path) for path in changed)
    summary = summarize("run_command", result.text, is_error=result.is_error, locale=ctx.locale)
    event = CommandFinished(command, outcome.returncode, outcome.timed_out, rels, summary)
    with contextlib.suppress(Exception):  # a broken sink must not misreport a finished command
        ctx.emit(event)
    if not changed or watched is None or ctx.problems is None:
        return result
    problems = await ctx.problems.after(changed, rels, watched[1], ctx.emit)
    return ToolResult(f"{result.text}\n{problems}", result.is_error, summary)


def _ran_as(ctx: ToolContext, command: str, actual: str) -> str:
    """When the command runs as another text (design §3: git with its configured programs
    off), the user and the model are shown that text: a notice, and the result's first line."""
    if actual == command:
        return ""
    line = text("permissions.ran_as", ctx.locale, command=actual)
    with contextlib.suppress(Exception):  # a broken sink must not stop the command
        ctx.emit(Notice("info", line))
    return line + "\n"


def explainer(ctx: ToolContext) -> Explain:
    sandbox, root, locale = ctx.sandbox, ctx.session.root, ctx.locale
    return lambda output: explain(sandbox, output, root, locale)
