"""The proxy's sockets before the relay: taking a command's connection, reading its request
head, connecting to the host.

Why bare sockets and not asyncio streams: once a host is judged, the connection is relayed in
the kernel (`relay.py`, splice in threads), which needs the sockets themselves with nothing
buffered in a stream reader; and the forwarder in the sandbox hands the command's connection
over as a descriptor (SCM_RIGHTS), which a stream cannot receive.

A descriptor from the sandbox is the sandbox's to give, so it is checked before use: a
connected TCP socket (what the forwarder accepted from the command), nothing else. A listening
socket, a file, a pipe or a UNIX socket is closed and the connection dropped. Whatever the
proxy then does with it (read the request, write the answer) the command could do itself.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import os
import socket
import stat
from typing import Final

from kesi_lsp.core.network.http import HEAD_LIMIT, BadRequestError

HANDOVER: Final = b"F"
"""The byte the forwarder sends with a descriptor (forwarder.HANDOVER; not imported: the
forwarder is a script run in the sandbox)."""
RECEIVE: Final = 1 << 16
MAX_DESCRIPTORS: Final = 4
INET: Final = (socket.AF_INET, socket.AF_INET6)


async def readable(sock: socket.socket) -> None:
    """Wait until `sock` can be read (or has ended)."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    loop.add_reader(sock, wake)
    try:
        await ready
    finally:
        loop.remove_reader(sock)


def _descriptors(ancillary: list[tuple[int, int, bytes]]) -> list[int]:
    found = array.array("i")
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            found.frombytes(data[: len(data) - len(data) % found.itemsize])
    return list(found)


def _is_connected_tcp(fd: int) -> bool:
    try:
        if not stat.S_ISSOCK(os.fstat(fd).st_mode):
            return False
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:
        return False
    with sock:
        try:
            listening = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN)
            sock.getpeername()
        except OSError:
            return False
        return sock.family in INET and sock.type == socket.SOCK_STREAM and not listening


async def take_client(conn: socket.socket) -> tuple[socket.socket, bytes] | None:
    """The command's connection and its first bytes. From the forwarder, the descriptor it
    handed over (`conn` is then closed); from any other client of the UNIX socket (or the
    loopback port), `conn` itself. None: nothing came, or a descriptor that is not a
    connected TCP socket."""
    while True:  # tried before waiting: the forwarder has usually sent it already
        with contextlib.suppress(BlockingIOError, InterruptedError):
            data, ancillary, _flags, _ = conn.recvmsg(
                RECEIVE, socket.CMSG_SPACE(MAX_DESCRIPTORS * 4), socket.MSG_CMSG_CLOEXEC
            )
            break
        await readable(conn)
    descriptors = _descriptors(ancillary)
    if not descriptors:
        if not data:
            return None
        local_hop(conn)
        return conn, data
    first, rest = descriptors[0], descriptors[1:]
    for fd in rest:
        os.close(fd)
    conn.close()
    if data != HANDOVER or not _is_connected_tcp(first):
        os.close(first)
        return None
    client = socket.socket(fileno=first)
    client.setblocking(False)
    local_hop(client)
    return client, b""


LOCAL_CONGESTION: Final = b"reno"


def local_hop(sock: socket.socket) -> None:
    """Reno for the command's side of a relay, a loopback connection (the sandbox's own, or
    the proxy's port on macOS), whatever the machine's default congestion control is.

    Why: with BBR as the default (as on the benchmark's machine), every TCP connection paces
    its sending with timers, which on a loopback hop has nothing to measure and only costs:
    the relayed 50 MB download spent 16-20 ms of the relay's CPU per run and took a median
    1.10-1.17x the direct time; with reno on this hop 11-12 ms and 0.90-0.99x (bench/network.py,
    bench/README §12). Reno is the kernel's own, always allowed to an unprivileged process. The
    host's side, the internet in real use, keeps the machine's choice. Where the option does
    not exist (macOS) or the socket is no TCP socket, nothing changes."""
    option = getattr(socket, "TCP_CONGESTION", None)
    if option is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, option, LOCAL_CONGESTION)


async def read_head(sock: socket.socket, first: bytes) -> tuple[bytes, bytes]:
    """A request head (to its blank line) and the bytes that came after it."""
    loop = asyncio.get_running_loop()
    data = first
    while (end := data.find(b"\r\n\r\n")) < 0:
        if len(data) > HEAD_LIMIT:
            raise BadRequestError("request head too long")
        more = await loop.sock_recv(sock, RECEIVE)
        if not more:
            raise ConnectionError("the client left before its request ended")
        data += more
    return data[: end + 4], data[end + 4 :]


async def connect(address: str, port: int) -> socket.socket:
    """A connected, non-blocking TCP socket to `address`."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setblocking(False)
    try:
        await asyncio.get_running_loop().sock_connect(sock, (address, port))
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    except BaseException:
        sock.close()
        raise
    return sock


def end(sock: socket.socket) -> None:
    """Close `sock`, whatever state it is in."""
    with contextlib.suppress(OSError):
        sock.close()
