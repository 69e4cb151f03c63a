"""KeSi's allow-list proxy: one listener per sandboxed command, outside the sandbox.

Why our own small asyncio proxy and not a library: the proxies on PyPI either intercept TLS
(mitmproxy, which the sandbox must not do: it would need its own CA inside every toolchain)
or run as a server of their own with their own threads, processes and flags (proxy.py,
pproxy), where a per-command listener on a UNIX socket, a judgement that needs the session's
live grants, an address check *after* resolving and per-command limits and refusal records
would all be plugins around the library's own model. What the sandbox needs is small: CONNECT
tunnels and plain-http forwarding, about 300 lines here (`http.py`, `tls.py`, `addresses.py`).

A `Channel` serves one command: it listens (a UNIX socket for bubblewrap, a loopback port for
Seatbelt), judges each request's host (`judge`: the allow and deny patterns and the session's
grants, read at that moment, so a grant given a second ago applies), resolves it, refuses
host-service addresses, connects, and pipes bytes both ways. A refused request gets an HTTP
403 whose body names the host and the setting; every refusal is recorded for the tool result.
The channel bounds connections (in all and at once), bytes and time; `close` ends all of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from kesi_lsp.core.network.addresses import Resolver, Target, is_host_service
from kesi_lsp.core.network.http import (
    ESTABLISHED,
    HEAD_LIMIT,
    BadRequestError,
    ProxyRequest,
    parse_request,
    response,
)
from kesi_lsp.core.network.relay import HostSide
from kesi_lsp.core.network.tls import RECORD_HEADER, record_length, server_name
from kesi_lsp.core.settings.network import HostVerdict, is_ip, normalize_host

CHUNK: Final = 1 << 18
MAX_HELLO: Final = 1 << 14

Why = Literal["unlisted", "denied", "address", "sni", "limit"]


@dataclass(frozen=True)
class Refusal:
    """One refused host: `why`, and `detail` (the deny pattern, the address it resolved to,
    the TLS name it asked for, the limit reached)."""

    host: str
    why: Why
    detail: str = ""


@dataclass(frozen=True)
class ChannelLimits:
    """What one command may do through the proxy."""

    max_connections: int = 1024
    """Connections in all (a package manager opens a few dozen)."""
    max_open: int = 64
    """Connections open at once."""
    max_bytes: int = 8 << 30
    """Bytes through the proxy, both ways together."""
    max_seconds: float = 3600.0
    """How long the channel serves at most (the command's own timeout usually ends it)."""
    connect_seconds: float = 15.0
    head_seconds: float = 30.0


Judge = Callable[[str], tuple[HostVerdict, str | None]]
"""A host -> its verdict and the deny pattern that matched (None otherwise)."""
Words = Callable[[Refusal], str]
"""A refusal -> the 403 body the command sees."""


@dataclass
class Channel:
    """The proxy for one command (see the module's docstring)."""

    judge: Judge
    resolver: Resolver
    words: Words
    limits: ChannelLimits = field(default_factory=ChannelLimits)
    refused: dict[str, Refusal] = field(default_factory=dict)
    connections: int = 0
    transferred: int = 0
    socket_path: str = ""
    port: int = 0
    _server: asyncio.AbstractServer | None = None
    _folder: str = ""
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _deadline: asyncio.TimerHandle | None = None

    async def listen_unix(self) -> str:
        """Listen on a UNIX socket in a private folder; return its path."""
        self._folder = tempfile.mkdtemp(prefix="kesi-net-")
        self.socket_path = str(Path(self._folder) / "proxy.sock")
        self._server = await asyncio.start_unix_server(
            self._accept, path=self.socket_path, limit=HEAD_LIMIT
        )
        self._arm()
        return self.socket_path

    async def listen_tcp(self) -> int:
        """Listen on a free loopback port (macOS: Seatbelt allows only that port)."""
        self._server = await asyncio.start_server(
            self._accept, host="127.0.0.1", port=0, limit=HEAD_LIMIT
        )
        self.port = int(self._server.sockets[0].getsockname()[1])
        self._arm()
        return self.port

    def _arm(self) -> None:
        loop = asyncio.get_running_loop()
        self._deadline = loop.call_later(self.limits.max_seconds, self._expire)

    def _expire(self) -> None:
        self.refuse(Refusal("*", "limit", "seconds"))
        self._stop_serving()

    def _stop_serving(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._tasks):
            task.cancel()

    async def close(self) -> list[Refusal]:
        """Stop listening, end every connection, remove the socket; return the refusals."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._stop_serving()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 5)
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)
        return list(self.refused.values())

    def refuse(self, refusal: Refusal) -> None:
        self.refused.setdefault(refusal.host, refusal)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._serve(reader, writer)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), self.limits.head_seconds)
        try:
            request = parse_request(head)
        except BadRequestError as exc:
            writer.write(response(400, "Bad Request", str(exc)))
            return
        host = normalize_host(request.host)
        refusal = self._judged(host)
        if refusal is None:
            targets = await self.resolver.resolve(host, request.port)
            allowed = [t for t in targets if t.trusted or not is_host_service(t.address)]
            if targets and not allowed:
                refusal = Refusal(host, "address", targets[0].address)
            elif not targets:
                writer.write(response(502, "Bad Gateway", f"cannot resolve {host}"))
                return
        if refusal is not None:
            self.refuse(refusal)
            writer.write(response(403, "Forbidden", self.words(refusal)))
            return
        side = await self._connect(allowed, writer)
        if side is None:
            writer.write(response(502, "Bad Gateway", f"cannot connect to {host}"))
            return
        await self._relay(request, host, reader, writer, side)

    def _judged(self, host: str) -> Refusal | None:
        if self.connections > self.limits.max_connections:
            return Refusal(host, "limit", "connections")
        if len(self._tasks) > self.limits.max_open:
            return Refusal(host, "limit", "open")
        verdict, pattern = self.judge(host)
        if verdict == "deny":
            return Refusal(host, "denied", pattern or "")
        if verdict == "unlisted":
            return Refusal(host, "unlisted")
        return None

    async def _connect(
        self, targets: Sequence[Target], client: asyncio.StreamWriter
    ) -> HostSide | None:
        loop = asyncio.get_running_loop()
        for target in targets:
            with contextlib.suppress(OSError, TimeoutError):
                _, side = await asyncio.wait_for(
                    loop.create_connection(
                        lambda: HostSide(client, self._count), target.address, target.port
                    ),
                    self.limits.connect_seconds,
                )
                return side
        return None

    def _count(self, size: int) -> bool:
        """Count bytes through the channel; False (and every connection ended) past the limit."""
        self.transferred += size
        if self.transferred <= self.limits.max_bytes:
            return True
        self.refuse(Refusal("*", "limit", "bytes"))
        self._stop_serving()
        return False

    async def _relay(
        self,
        request: ProxyRequest,
        host: str,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        side: HostSide,
    ) -> None:
        try:
            if request.head is not None:
                side.send(request.head)
            else:
                writer.write(ESTABLISHED)
                first = await self._client_hello(reader)
                sni = server_name(first)
                if sni is not None and not is_ip(host) and normalize_host(sni) != host:
                    self.refuse(Refusal(host, "sni", sni))
                    return
                side.send(first)
            await asyncio.gather(self._pipe(reader, side), side.finished)
        finally:
            side.close()

    async def _client_hello(self, reader: asyncio.StreamReader) -> bytes:
        """The client's first bytes; a whole TLS record when they start one (for its SNI)."""
        first = await reader.read(CHUNK)
        length = record_length(first[:RECORD_HEADER]) if len(first) >= RECORD_HEADER else None
        while length is not None and len(first) < min(RECORD_HEADER + length, MAX_HELLO):
            more = await reader.read(CHUNK)
            if not more:
                break
            first += more
        return first

    async def _pipe(self, source: asyncio.StreamReader, side: HostSide) -> None:
        """The command's bytes to the host (the host's come back in `HostSide`)."""
        try:
            while chunk := await source.read(CHUNK):
                if not self._count(len(chunk)):
                    return
                side.send(chunk)
                await side.drain()
        except OSError:
            return
        side.end_writing()
