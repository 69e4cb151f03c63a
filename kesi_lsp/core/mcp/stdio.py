"""A stdio MCP server started the way KeSi starts every child: in the command sandbox, tied to
the server's lifeline (`core.sandbox.children`), in its own process group.

The SDK's own `stdio_client` spawns the program itself, without the lifeline descriptor the
tether and the sandbox guard need, and outside the sandbox. So the process is KeSi's and only
the framing is done here: one JSON-RPC message per line, parsed with the SDK's own message
model (`mcp_types.jsonrpc_message_adapter`) into the SDK's `SessionMessage`s; the protocol
itself is the SDK's `ClientSession`.

What a server does wrong is kept as data for the user: a line that is not JSON-RPC reaches the
session as an exception (and is counted, so a flood of garbage ends the connection instead of
spinning), the last lines of its stderr (bwrap's "execvp: No such file", a Python traceback)
say why it stopped, and a line larger than `MAX_LINE_BYTES` ends it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import anyio
import mcp_types
from mcp.shared.message import SessionMessage

from kesi_lsp.core.sandbox import children

MAX_LINE_BYTES: Final = 32 * 1024 * 1024
MAX_GARBAGE_LINES: Final = 200
STDERR_LINES: Final = 12
STOP_SECONDS: Final = 2.0


@dataclass
class ServerOutput:
    """What a server said besides MCP: its stderr's last lines and the first non-MCP line."""

    stderr: collections.deque[str] = field(
        default_factory=lambda: collections.deque(maxlen=STDERR_LINES)
    )
    garbage: str | None = None
    garbage_lines: int = 0
    too_long: bool = False
    returncode: int | None = None
    http_status: int | None = None
    ended: asyncio.Event = field(default_factory=asyncio.Event)

    def stderr_tail(self) -> str:
        return " | ".join(line for line in self.stderr if line)[-600:]


class FloodedError(Exception):
    """The server wrote too many lines that are not MCP, or one line too long."""


@contextlib.asynccontextmanager
async def stdio_streams(
    argv: Sequence[str], env: Mapping[str, str], cwd: Path, output: ServerOutput
) -> AsyncIterator[tuple[object, object]]:
    """Start `argv` (a sandbox's argv: it watches the lifeline itself) and yield the SDK's
    (read stream, write stream) pair; on exit the whole process group is stopped."""
    proc = await children.start(
        argv,
        env=env,
        cwd=cwd,
        watches_itself=True,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        limit=MAX_LINE_BYTES,
    )
    read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](64)
    write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](64)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(_read, proc, read_send, output)
            group.start_soon(_write, proc, write_recv)
            group.start_soon(_stderr, proc, output)
            try:
                yield read_recv, write_send
            finally:
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(proc)
            output.returncode = proc.returncode
            for stream in (read_send, read_recv, write_send, write_recv):
                stream.close()


async def _read(
    proc: asyncio.subprocess.Process,
    out: anyio.abc.ObjectSendStream[SessionMessage | Exception],
    output: ServerOutput,
) -> None:
    assert proc.stdout is not None
    try:
        await _read_lines(proc.stdout, out, output)
    finally:
        output.ended.set()


async def _read_lines(
    stdout: asyncio.StreamReader,
    out: anyio.abc.ObjectSendStream[SessionMessage | Exception],
    output: ServerOutput,
) -> None:
    async with out:
        while True:
            try:
                line = await stdout.readline()
            except ValueError:  # one line longer than the limit
                output.too_long = True
                await out.send(FloodedError("line too long"))
                return
            if not line:
                return
            if not line.strip():
                continue
            try:
                message = mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
            except ValueError as exc:
                output.garbage_lines += 1
                if output.garbage is None:
                    output.garbage = line[:200].decode("utf-8", "replace").strip()
                if output.garbage_lines > MAX_GARBAGE_LINES:
                    await out.send(FloodedError("too many lines that are not MCP"))
                    return
                await out.send(exc)
                continue
            await out.send(SessionMessage(message))


async def _write(
    proc: asyncio.subprocess.Process, messages: anyio.abc.ObjectReceiveStream[SessionMessage]
) -> None:
    assert proc.stdin is not None
    with contextlib.suppress(OSError, ConnectionError):
        async with messages:
            async for item in messages:
                data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                proc.stdin.write(data.encode("utf-8") + b"\n")
                await proc.stdin.drain()


async def _stderr(proc: asyncio.subprocess.Process, output: ServerOutput) -> None:
    assert proc.stderr is not None
    while True:
        try:
            line = await proc.stderr.readline()
        except ValueError:
            continue
        if not line:
            return
        output.stderr.append(line[:300].decode("utf-8", "replace").strip())


async def _stop(proc: asyncio.subprocess.Process) -> None:
    """Close stdin, give the server a moment, then end its whole group (the MCP shutdown)."""
    if proc.stdin is not None:
        with contextlib.suppress(OSError):
            proc.stdin.close()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), STOP_SECONDS)
        return
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), STOP_SECONDS)
        return
    children.kill_group(proc.pid)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(proc.wait(), STOP_SECONDS)
