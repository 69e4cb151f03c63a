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
host-service addresses, connects, and hands both sockets to a `relay.Relay` (splice in two
threads: the bytes pass neither through the server's memory nor its event loop). The command's
side is its own socket, handed over by the forwarder in the sandbox (`sockets.take_client`).
A refused request gets an HTTP 403 whose body names the host and the setting; every refusal
is recorded for the tool result. The channel bounds connections (in all and at once), bytes
and time; `close` ends all of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import tempfile
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal

from kesi_lsp.core.network.addresses import Resolver, Target, is_host_service
from kesi_lsp.core.network.http import (
    ESTABLISHED,
    BadRequestError,
    ProxyRequest,
    parse_request,
    response,
)
from kesi_lsp.core.network.relay import Relay
from kesi_lsp.core.network.sockets import connect, end, read_head, take_client
from kesi_lsp.core.network.tls import RECORD_HEADER, record_length, server_name
from kesi_lsp.core.settings.network import HostVerdict, is_ip, normalize_host

BACKLOG: Final = 128
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
    _acceptor: asyncio.Task[None] | None = None
    _folder: str = ""
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _deadline: asyncio.TimerHandle | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def listen_unix(self) -> str:
        """Listen on a UNIX socket in a private folder; return its path."""
        self._folder = tempfile.mkdtemp(prefix="kesi-net-")
        self.socket_path = str(Path(self._folder) / "proxy.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(self.socket_path)
        self._listen(listener)
        return self.socket_path

    async def listen_tcp(self) -> int:
        """Listen on a free loopback port (macOS: Seatbelt allows only that port)."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        self.port = int(listener.getsockname()[1])
        self._listen(listener)
        return self.port

    def _listen(self, listener: socket.socket) -> None:
        listener.listen(BACKLOG)
        listener.setblocking(False)
        loop = asyncio.get_running_loop()
        self._acceptor = loop.create_task(self._accept_all(listener))
        self._deadline = loop.call_later(self.limits.max_seconds, self._expire)

    async def _accept_all(self, listener: socket.socket) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                conn, _ = await loop.sock_accept(listener)
                conn.setblocking(False)
                task = loop.create_task(self._accept(conn))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        except OSError:
            return
        finally:
            listener.close()

    def _expire(self) -> None:
        self.refuse(Refusal("*", "limit", "seconds"))
        self._stop_serving()

    def _stop_serving(self) -> None:
        if self._acceptor is not None:
            self._acceptor.cancel()
        for task in list(self._tasks):
            task.cancel()

    async def close(self) -> list[Refusal]:
        """Stop listening, end every connection, remove the socket; return the refusals."""
        if self._deadline is not None:
            self._deadline.cancel()
        self._stop_serving()
        waiting = [*self._tasks, *([self._acceptor] if self._acceptor is not None else [])]
        if waiting:
            await asyncio.wait(waiting, timeout=5)
        if self._folder:
            shutil.rmtree(self._folder, ignore_errors=True)
        return list(self.refused.values())

    def refuse(self, refusal: Refusal) -> None:
        self.refused.setdefault(refusal.host, refusal)

    async def _accept(self, conn: socket.socket) -> None:
        client = conn
        try:
            async with asyncio.timeout(self.limits.head_seconds):  # inline, unlike wait_for
                taken = await take_client(conn)
            if taken is not None:
                client, first = taken
                await self._serve(client, first)
        except (OSError, ValueError):  # TimeoutError is an OSError
            pass
        finally:
            end(conn)
            end(client)

    async def _answer(self, client: socket.socket, status: int, reason: str, body: str) -> None:
        await asyncio.get_running_loop().sock_sendall(client, response(status, reason, body))

    async def _serve(self, client: socket.socket, first: bytes) -> None:
        self.connections += 1
        try:
            async with asyncio.timeout(self.limits.head_seconds):
                head, rest = await read_head(client, first)
            request = parse_request(head)
        except BadRequestError as exc:
            await self._answer(client, 400, "Bad Request", str(exc))
            return
        host = normalize_host(request.host)
        refusal = self._judged(host)
        if refusal is None:
            targets = await self.resolver.resolve(host, request.port)
            allowed = [t for t in targets if t.trusted or not is_host_service(t.address)]
            if targets and not allowed:
                refusal = Refusal(host, "address", targets[0].address)
            elif not targets:
                await self._answer(client, 502, "Bad Gateway", f"cannot resolve {host}")
                return
        if refusal is not None:
            self.refuse(refusal)
            await self._answer(client, 403, "Forbidden", self.words(refusal))
            return
        upstream = await self._connect(allowed)
        if upstream is None:
            await self._answer(client, 502, "Bad Gateway", f"cannot connect to {host}")
            return
        try:
            await self._relay(request, host, client, upstream, rest)
        finally:
            end(upstream)

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

    async def _connect(self, targets: Sequence[Target]) -> socket.socket | None:
        for target in targets:
            with contextlib.suppress(OSError):  # TimeoutError too
                async with asyncio.timeout(self.limits.connect_seconds):
                    return await connect(target.address, target.port)
        return None

    def _count(self, size: int) -> bool:
        """Count bytes through the channel (from the relays' threads too); False past the
        limit, and then every connection is ended."""
        with self._lock:
            self.transferred += size
            within = self.transferred <= self.limits.max_bytes
        if not within:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nothing to stop
                self._loop().call_soon_threadsafe(self._over_bytes)
        return within

    def _loop(self) -> asyncio.AbstractEventLoop:
        assert self._acceptor is not None
        return self._acceptor.get_loop()

    def _over_bytes(self) -> None:
        self.refuse(Refusal("*", "limit", "bytes"))
        self._stop_serving()

    async def _relay(
        self,
        request: ProxyRequest,
        host: str,
        client: socket.socket,
        upstream: socket.socket,
        rest: bytes,
    ) -> None:
        loop = asyncio.get_running_loop()
        if request.head is not None:
            first = request.head + rest
        else:
            await loop.sock_sendall(client, ESTABLISHED)
            first = await self._client_hello(client, rest)
            sni = server_name(first)
            if sni is not None and not is_ip(host) and normalize_host(sni) != host:
                self.refuse(Refusal(host, "sni", sni))
                return
        if not self._count(len(first)):
            return
        await loop.sock_sendall(upstream, first)
        await Relay(client, upstream, self._count).run()

    async def _client_hello(self, client: socket.socket, rest: bytes) -> bytes:
        """The client's first bytes; a whole TLS record when they start one (for its SNI)."""
        loop = asyncio.get_running_loop()
        first = rest or await loop.sock_recv(client, MAX_HELLO)
        length = record_length(first[:RECORD_HEADER]) if len(first) >= RECORD_HEADER else None
        while length is not None and len(first) < min(RECORD_HEADER + length, MAX_HELLO):
            more = await loop.sock_recv(client, MAX_HELLO)
            if not more:
                break
            first += more
        return first
