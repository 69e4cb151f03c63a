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
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Refused
from kesi_lsp.core.diagnostics.watch import Before, disk_signatures
from kesi_lsp.core.events import CommandFinished, Notice
from kesi_lsp.core.network.widen import widened
from kesi_lsp.core.paths import relative
from kesi_lsp.core.sandbox import children
from kesi_lsp.core.sandbox.env import scrub_environment
from kesi_lsp.core.sandbox.hidden import explain
from kesi_lsp.core.summary import summarize
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.pipes import settle
from kesi_lsp.core.tools.result import ToolResult

MAX_CAPTURE_BYTES: Final = 1_000_000
MAX_OUTPUT_BYTES: Final = 8000
KILL_GRACE_SECONDS: Final = 3.0
READ_CHUNK: Final = 65536
POLL_SECONDS: Final = 0.05

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


def _group_alive(pgid: int) -> bool:
    """Tell whether any live (non-zombie) process is left in process group `pgid`."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    proc = Path("/proc")
    if not (proc / "self" / "stat").exists():
        return True
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        fields = stat.rpartition(")")[2].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            return True
    return False


def _signal_group(pgid: int, sig: signal.Signals) -> bool:
    """Send `sig` to the group; False when the group no longer exists."""
    try:
        os.killpg(pgid, sig)
    except OSError:
        return False
    return True


async def stop_group(pgid: int) -> None:
    """Knock, then break the door: SIGTERM the group, wait up to 3 s for it, then SIGKILL.

    A second cancellation while waiting skips straight to SIGKILL.
    """
    if not _signal_group(pgid, signal.SIGTERM):
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + KILL_GRACE_SECONDS
    try:
        while loop.time() < deadline:
            if not await asyncio.to_thread(_group_alive, pgid):
                return
            await asyncio.sleep(POLL_SECONDS)
    finally:
        _signal_group(pgid, signal.SIGKILL)


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


async def _spawn(argv: list[str], root: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    """Start the shell in its own process group, tied to the server (`children.start`: it dies
    with the server, also a killed one); a cancel during the start still kills the group.

    If the task is cancelled while asyncio is still creating the process, asyncio's own clean-up
    kills only the shell, and a background child it already forked would live on. So the start
    itself is shielded; on cancellation the start is awaited, the whole group is stopped, and the
    cancellation goes on.
    """
    start = asyncio.ensure_future(
        children.start(
            argv,
            cwd=root,
            env=env,
            watches_itself=True,  # the sandbox's argv: the guard, or the tethered shell
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
    )
    try:
        return await asyncio.shield(start)
    except asyncio.CancelledError:
        with contextlib.suppress(OSError, ValueError):
            proc = await start
            try:
                await stop_group(proc.pid)
            finally:
                await settle(proc)
        raise


async def run_command(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Ask the gate, then run the command in the workspace and report what happened."""
    command = args["command"]
    if not command.strip():
        return ToolResult(text("tools.run.empty", ctx.locale), True)
    answer = await ctx.gate.authorize_command(command)
    if isinstance(answer, Refused):
        return ToolResult(answer.message, True)
    actual = ctx.gate.runs_as(command)
    ran_as = _ran_as(ctx, command, actual)
    root = ctx.session.root
    timeout = ctx.session.settings.command_timeout
    env = scrub_environment(ctx.sandbox.environment(ctx.environ, root))
    watched = await _watch(ctx)
    opened = await ctx.network.open(ctx.session, ctx.sandbox) if ctx.network else None
    try:
        argv = (
            ctx.sandbox.argv(actual, root)
            if opened is None
            else ctx.sandbox.argv(actual, root, network=opened.bridge)
        )
        try:
            proc = await _spawn(argv, root, env)
        except (OSError, ValueError) as exc:
            error = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            return ToolResult(text("tools.run.launch_failed", ctx.locale, error=error), True)
        outcome = await supervise(proc, timeout)
    finally:
        refusals = await opened.channel.close() if opened is not None else []
    result = report(outcome, timeout, ctx.locale, explain=_explainer(ctx))
    result = ToolResult(ran_as + result.text, result.is_error) if ran_as else result
    if opened is not None and (
        told := await widened(refusals, ctx.gate, opened.channel.limits, ctx.emit)
    ):
        result = ToolResult(f"{result.text}\n{told}", result.is_error, result.summary)
    return await _reported(ctx, actual, result, outcome, watched)


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


def _explainer(ctx: ToolContext) -> Explain:
    sandbox, root, locale = ctx.sandbox, ctx.session.root, ctx.locale
    return lambda output: explain(sandbox, output, root, locale)
