"""The relay between a command and a host: the forwarder hands the command's connection to the
proxy, the proxy splices it to the host; every byte arrives, in both directions, and the
channel's bounds (bytes, connections, time) still end what passes them.

The command runs under the real forwarder (as in the sandbox, without bubblewrap around it:
the sandboxed flows are tests/core/network/test_sandboxed_network.py), hosts are loopback
servers mapped through the proxy's test resolver.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import hashlib
import os
import socket
import sys
import threading
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from kesi_lsp.core.network.proxy import Channel, ChannelLimits
from kesi_lsp.core.network.relay import Workers
from kesi_lsp.core.sandbox.bubblewrap import FORWARDER_PATH
from tests.core.network.servers import access_to, site

BIG = 5 << 20

# Under the forwarder: download a URL through the proxy it names, print the size and digest.
DOWNLOAD = """
import hashlib, sys, urllib.request
data = urllib.request.urlopen(sys.argv[1], timeout=60).read()
print(len(data), hashlib.sha256(data).hexdigest())
"""

# Under the forwarder: through a CONNECT tunnel, send N bytes, end the writing side, read all
# that comes back (the echo server's copy), print its size and digest.
TUNNEL = """
import hashlib, os, socket, sys, threading
port = int(os.environ["HTTPS_PROXY"].rpartition(":")[2])
sock = socket.create_connection(("127.0.0.1", port))
sock.sendall(b"CONNECT echo.test:443 HTTP/1.1\\r\\nHost: echo.test:443\\r\\n\\r\\n")
head = b""
while b"\\r\\n\\r\\n" not in head:
    head += sock.recv(1)
assert head.startswith(b"HTTP/1.1 200"), head
payload = bytes(range(256)) * (int(sys.argv[1]) // 256)
def send():
    sock.sendall(payload)
    sock.shutdown(socket.SHUT_WR)
threading.Thread(target=send).start()
got = bytearray()
while chunk := sock.recv(1 << 16):
    got += chunk
print(len(got), hashlib.sha256(got).hexdigest() == hashlib.sha256(payload).hexdigest())
"""


async def _under_forwarder(socket_path: str, *argv: str) -> str:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-S", FORWARDER_PATH, socket_path, "--", *argv,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 120)
    assert proc.returncode == 0, err.decode()
    return out.decode().strip()


async def _echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    while data := await reader.read(1 << 16):
        writer.write(data)
        await writer.drain()
    writer.close()


@contextlib.asynccontextmanager
async def _echo_server() -> AsyncIterator[int]:
    server = await asyncio.start_server(_echo, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()


def _channel(limits: ChannelLimits | None = None, **ports: int) -> Channel:
    access = access_to(**ports)
    return Channel(lambda host: ("allow", None), access.resolver, str, limits or ChannelLimits())


@pytest.fixture
def big(pages: Path) -> str:
    data = os.urandom(BIG)
    (pages / "big.bin").write_bytes(data)
    return f"{BIG} {hashlib.sha256(data).hexdigest()}"


@pytest.mark.parametrize("splice", [True, False], ids=["splice", "copy (macOS)"])
async def test_a_download_through_forwarder_and_proxy_arrives_whole(
    pages: Path, big: str, splice: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not splice:
        monkeypatch.delattr(os, "splice", raising=False)
    with site(pages) as web:
        channel = _channel(big_test=web.port)
        path = await channel.listen_unix()
        shown = await _under_forwarder(
            path, sys.executable, "-c", DOWNLOAD, "http://big.test/big.bin"
        )
        refusals = await channel.close()
    assert shown == big
    assert refusals == []
    assert channel.transferred >= BIG


async def test_a_tunnel_carries_both_directions_and_the_half_close() -> None:
    async with _echo_server() as port:
        channel = _channel(echo_test=port)
        path = await channel.listen_unix()
        shown = await _under_forwarder(path, sys.executable, "-c", TUNNEL, str(3 << 20))
        await channel.close()
    assert shown == f"{3 << 20} True"


async def test_the_byte_limit_cuts_a_download_and_is_reported(pages: Path, big: str) -> None:
    with site(pages) as web:
        channel = _channel(replace(ChannelLimits(), max_bytes=1 << 20), big_test=web.port)
        path = await channel.listen_unix()
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-I", "-S", FORWARDER_PATH, path, "--",
            sys.executable, "-c", DOWNLOAD, "http://big.test/big.bin",
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(proc.communicate(), 120)
        refusals = await channel.close()
    assert proc.returncode != 0  # the download was cut short: urllib says so
    assert b"IncompleteRead" in err or b"Connection" in err, err.decode()
    assert [(r.host, r.why, r.detail) for r in refusals] == [("*", "limit", "bytes")]
    assert channel.transferred < BIG


async def _open_tunnel(path: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    reader, writer = await asyncio.open_unix_connection(path)
    writer.write(b"CONNECT echo.test:443 HTTP/1.1\r\nHost: echo.test:443\r\n\r\n")
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 200")
    writer.write(b"ping")
    assert await reader.readexactly(4) == b"ping"  # relayed: the tunnel is in the kernel now
    return reader, writer


async def test_closing_the_channel_ends_an_open_tunnel() -> None:
    async with _echo_server() as port:
        channel = _channel(echo_test=port)
        reader, writer = await _open_tunnel(await channel.listen_unix())
        await asyncio.wait_for(channel.close(), 10)
        assert await asyncio.wait_for(reader.read(), 10) == b""
        writer.close()


async def test_the_channel_time_limit_ends_an_open_tunnel_and_is_reported() -> None:
    async with _echo_server() as port:
        channel = _channel(replace(ChannelLimits(), max_seconds=2.0), echo_test=port)
        reader, writer = await _open_tunnel(await channel.listen_unix())
        assert await asyncio.wait_for(reader.read(), 30) == b""  # ended at the deadline
        writer.close()
        refusals = await channel.close()
    assert [(r.host, r.why, r.detail) for r in refusals] == [("*", "limit", "seconds")]


async def test_connections_past_the_limit_are_refused_with_a_403(pages: Path) -> None:
    with site(pages) as web:
        channel = _channel(replace(ChannelLimits(), max_connections=2), hello_test=web.port)
        path = await channel.listen_unix()
        answers = []
        for _ in range(3):
            reader, writer = await asyncio.open_unix_connection(path)
            writer.write(b"GET http://hello.test/hello.txt HTTP/1.1\r\nHost: hello.test\r\n\r\n")
            answers.append((await reader.read()).split(b"\r\n", 1)[0])
            writer.close()
        refusals = await channel.close()
    assert answers == [b"HTTP/1.0 200 OK", b"HTTP/1.0 200 OK", b"HTTP/1.1 403 Forbidden"]
    assert [(r.host, r.why, r.detail) for r in refusals] == [("hello.test", "limit", "connections")]


def _hand(path: str, fd: int) -> socket.socket:
    """Hand `fd` to the channel as the forwarder does."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(path)
    conn.sendmsg([b"F"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])
    return conn


async def test_a_handed_over_descriptor_that_is_no_connection_is_dropped(tmp_path: Path) -> None:
    """The sandbox could hand the proxy anything: a pipe or a listening socket is closed
    unused (nothing written to it, nothing accepted), and the channel goes on serving."""
    channel = _channel()
    path = await channel.listen_unix()
    read_end, write_end = os.pipe()
    listening = socket.create_server(("127.0.0.1", 0))
    handed = [_hand(path, write_end), _hand(path, listening.fileno())]
    os.close(write_end)
    for conn in handed:  # the channel ends each handing-over at once
        conn.setblocking(False)
        assert await asyncio.wait_for(asyncio.get_running_loop().sock_recv(conn, 1), 10) == b""
        conn.close()
    assert await asyncio.wait_for(asyncio.to_thread(os.read, read_end, 100), 10) == b""
    listening.settimeout(0.0)
    with pytest.raises(BlockingIOError):  # nobody connected through it
        listening.accept()
    reader, writer = await asyncio.open_unix_connection(path)  # still serving
    writer.write(b"junk\r\n\r\n")
    assert (await reader.read()).startswith(b"HTTP/1.1 400")
    writer.close()
    await channel.close()
    os.close(read_end)
    listening.close()


def test_relay_threads_are_reused_and_a_long_relay_never_holds_up_the_next() -> None:
    """The relays' threads (`relay.Workers`): a direction that ended leaves its thread for the
    next connection (no thread start in front of each small request), and one still running
    (a long download) never makes another wait for it."""
    workers = Workers()
    release, started, done = threading.Event(), threading.Event(), threading.Event()
    threads: list[threading.Thread] = []  # held: each its own object, as no ident is

    def long() -> None:
        started.set()
        release.wait(10)

    def short() -> None:
        threads.append(threading.current_thread())
        done.set()

    workers.run(long)
    assert started.wait(10)
    for _ in range(20):  # one after the other, as a command's small requests come
        done.clear()
        workers.run(short)  # taken at once, though the long one still holds its thread
        assert done.wait(10)
    release.set()
    # a thread that ended its job may not be idle yet when the next comes (then one starts:
    # typically twice in all); most of the jobs found one waiting
    assert len(set(threads)) < len(threads) // 2
