"""The proxy's byte relay: the host's side of a connection as a bare asyncio protocol.

Why not a second StreamReader: a download is the proxy's heavy direction, and a stream
buffer between the host's socket and the command's costs two copies and a task wake-up per
chunk (the bytes into the reader's buffer, out of it, then the write). Here what the host
sends is written to the command's transport inside `data_received`: one copy, no wake-up.
Flow control is the transports' own: when the command reads slower than the host sends, the
host's reading pauses until the command's buffer drains (`StreamWriter.drain`). That took a
50 MB loopback download from 2-3x the direct time to within the benchmark's 1.25x
(bench/network.py).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Final

HIGH_WATER: Final = 1 << 20
"""Bytes waiting for the command before the host's reading pauses."""

Count = Callable[[int], bool]
"""Bytes that passed -> whether the command may go on (False: its byte limit is reached)."""


class HostSide(asyncio.Protocol):
    """The connection to the host: its bytes go to `client` as they arrive; bytes for the
    host are written with `send` (with `drain` to wait while the host reads slowly)."""

    def __init__(self, client: asyncio.StreamWriter, count: Count) -> None:
        self._client = client
        self._count = count
        self._transport: asyncio.Transport | None = None
        self._paused = False
        self._writable = asyncio.Event()
        self._writable.set()
        self._resuming: asyncio.Task[None] | None = None
        self.finished: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        """Resolved when the host has sent all (its EOF, or the connection is gone)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        if not self._count(len(data)):
            self.close()
            return
        self._client.write(data)
        buffered = self._client.transport.get_write_buffer_size()
        if buffered > HIGH_WATER and not self._paused and self._transport is not None:
            self._paused = True
            self._transport.pause_reading()
            self._resuming = asyncio.ensure_future(self._resume())

    async def _resume(self) -> None:
        with contextlib.suppress(OSError, RuntimeError):
            await self._client.drain()
        self._paused = False
        if self._transport is not None and not self._transport.is_closing():
            self._transport.resume_reading()

    def eof_received(self) -> bool:
        """The host has sent all: end the command's reading side, keep ours for its bytes."""
        with contextlib.suppress(OSError, RuntimeError):
            if self._client.can_write_eof():
                self._client.write_eof()
        self._finish()
        return True

    def _finish(self) -> None:
        if not self.finished.done():
            self.finished.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        self._writable.set()
        self._finish()

    def pause_writing(self) -> None:
        self._writable.clear()

    def resume_writing(self) -> None:
        self._writable.set()

    def send(self, data: bytes) -> None:
        if self._transport is not None and not self._transport.is_closing():
            self._transport.write(data)

    async def drain(self) -> None:
        await self._writable.wait()

    def end_writing(self) -> None:
        """The command has sent all (half-close, as a socket's shutdown)."""
        with contextlib.suppress(OSError, RuntimeError):
            if self._transport is not None and self._transport.can_write_eof():
                self._transport.write_eof()

    def close(self) -> None:
        if self._resuming is not None:
            self._resuming.cancel()
        if self._transport is not None:
            self._transport.close()
