"""Newline-delimited JSON-RPC on the claimed stdio: every line in is answered, none is dropped.

The `acp` package's own stdio transport logs a line that is not JSON and goes on, so the
client waits for an answer that never comes, and a JSON array (a batch) or a bare number
breaks its receive loop. This transport answers such lines itself, the way JSON-RPC 2.0 says:
a parse error (-32700, id null) for text that is not JSON (also for nesting too deep for
Python's parser, which raises RecursionError, not ValueError), an invalid request (-32600) for
JSON that is not a message, and a clear error for a line over the size limit; only well-formed
messages reach the connection. Sending is serialised (one line at a time, in order) and never
fails on a value JSON cannot hold.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Callable
from typing import Any, BinaryIO, Final

from kesi_lsp.acp.errors import INVALID_REQUEST, PARSE_ERROR

log = logging.getLogger(__name__)

LINE_LIMIT: Final = 64 << 20  # maxMessageMegabytes' default (the acp package's is 50 MB)
TOO_DEEP: Final = "Parse error: the line nests arrays or objects too deeply to be a message"


async def open_streams(
    rpc_in: BinaryIO, rpc_out: BinaryIO, *, limit: int = LINE_LIMIT
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """asyncio streams on the private JSON-RPC descriptors (`kesi_lsp.stdio.claim_stdio`).

    Editors connect pipes. A regular file (`kesi-lsp acp < session.jsonl > out.jsonl`, to replay
    or record a session) cannot be a pipe transport; it is read in a thread and written in
    place instead."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=limit)
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), rpc_in)
    except ValueError:
        _feed_from_thread(loop, reader, rpc_in)
    protocol = asyncio.streams.FlowControlMixin()
    try:
        transport, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, rpc_out
        )
    except ValueError:
        transport = _FileTransport(rpc_out)
    return reader, asyncio.StreamWriter(transport, protocol, None, loop)


def _feed_from_thread(
    loop: asyncio.AbstractEventLoop, reader: asyncio.StreamReader, source: BinaryIO
) -> None:
    def pump() -> None:
        try:
            while chunk := source.read1(65536) if hasattr(source, "read1") else source.read(65536):
                loop.call_soon_threadsafe(reader.feed_data, chunk)
        finally:
            loop.call_soon_threadsafe(reader.feed_eof)

    threading.Thread(target=pump, name="acp-stdin", daemon=True).start()


class _FileTransport(asyncio.WriteTransport):
    """Writes to a regular file, in place (a file never pushes back)."""

    def __init__(self, target: BinaryIO) -> None:
        super().__init__()
        self._target = target
        self._closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self._target.write(bytes(data))
        self._target.flush()

    def is_closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        self._closing = True
        with contextlib.suppress(OSError):
            self._target.flush()


def encode(message: dict[str, Any]) -> bytes:
    """One JSON-RPC line; a value JSON cannot hold becomes its text rather than an error."""
    return (json.dumps(message, separators=(",", ":"), default=str) + "\n").encode("utf-8")


def _shape_problem(message: object) -> str | None:
    """Why a decoded line is not a JSON-RPC message (None: it is one)."""
    if isinstance(message, list):
        return "batches are not supported: send one message per line"
    if not isinstance(message, dict):
        return "a message must be a JSON object"
    method = message.get("method")
    if method is not None and not isinstance(method, str):
        return "'method' must be a string"
    if method is None and "id" not in message:
        return "a message needs a 'method' (request or notification) or an 'id' (response)"
    if method is None and not ({"result", "error"} & set(message)):
        return "a response needs a 'result' or an 'error'"
    return None


class LineTransport:
    """The `acp.Connection` message transport over one reader and writer."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, limit: int = LINE_LIMIT
    ) -> None:
        """`limit` is the one the reader was made with (`open_streams`)."""
        self._reader = reader
        self._limit = limit
        self._writer = writer
        self._lock = asyncio.Lock()
        self._closed = False
        self.on_sent: Callable[[], None] | None = None
        """Called once each message is written out (the agent starts its preparation after
        its `initialize` answer has left, not while it is being written)."""

    async def send(self, message: dict[str, Any]) -> None:
        data = encode(message)
        async with self._lock:
            if self._closed:
                raise ConnectionError("the client's connection is closed")
            self._writer.write(data)
            await self._writer.drain()
        if self.on_sent is not None:
            self.on_sent()

    async def receive(self) -> dict[str, Any] | None:
        """The next message; None at the end of input (the client went away)."""
        while True:
            line = await self._read_line()
            if line is None:
                return None
            if not line.strip():
                continue
            try:
                message = json.loads(line)
            except ValueError as exc:
                await self._answer(None, PARSE_ERROR, f"Parse error: the line is not JSON ({exc})")
                continue
            except RecursionError:  # `[[[[...` a hundred thousand deep: not a message
                await self._answer(None, PARSE_ERROR, TOO_DEEP)
                continue
            problem = _shape_problem(message)
            if problem is not None:
                request_id = message.get("id") if isinstance(message, dict) else None
                await self._answer(request_id, INVALID_REQUEST, f"Invalid request: {problem}")
                continue
            return message  # type: ignore[no-any-return]

    async def close(self) -> None:
        async with self._lock:
            self._closed = True
            with contextlib.suppress(Exception):
                self._writer.close()

    async def _read_line(self) -> bytes | None:
        try:
            return await self._reader.readuntil(b"\n")
        except asyncio.IncompleteReadError as exc:  # the end of input
            return exc.partial or None
        except asyncio.LimitOverrunError:
            await self._skip_long_line()
            too_long = (
                f"Invalid request: a message is over the limit of {self._limit} bytes "
                "(KESI_MAX_MESSAGE_MEGABYTES); it was dropped"
            )
            await self._answer(None, INVALID_REQUEST, too_long)
            return b""

    async def _skip_long_line(self) -> None:
        """Drop the rest of a line that is over the limit, chunk by chunk."""
        while True:
            try:
                await self._reader.readuntil(b"\n")
                return
            except asyncio.LimitOverrunError as exc:
                await self._reader.readexactly(exc.consumed)
            except asyncio.IncompleteReadError:
                return

    async def _answer(self, request_id: object, code: int, message: str) -> None:
        log.warning("answering a malformed message: %s", message)
        with contextlib.suppress(ConnectionError, OSError):
            await self.send(
                {"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}}
            )
