"""Connecting a scripted editor to a language server: as a program, or in this process.

`Program` starts the server the way an editor does, as a child process speaking JSON-RPC on
its stdin and stdout. `InProcess` runs a server object (built by a factory, e.g. KeSi's own
`create_server` with an environment and an agent runner) in a thread of this process, serving
the same JSON-RPC over a pair of OS pipes through pygls' own `start_io`: every message still
goes through framing, JSON and the converters, but no interpreter starts and no SDK is
imported again per server. What only a real process shows (stdout hygiene, signals, exit
codes) needs `Program`.

`connected(client, server)` starts either and yields a `Connection`; leaving it ends the
server (politely when the test shut it down, else by killing the process or closing the
pipes, which the server takes as the editor going away) and stops the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from pygls.client import JsonRPCClient
from pygls.io_ import run_async

STOP_SECONDS = 30.0


class Server(Protocol):
    """What `InProcess` needs of a server object: pygls' `start_io`."""

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None: ...


@dataclass(frozen=True)
class Program:
    """The server as a child process over stdio (`argv`, in `cwd`, with exactly `env`)."""

    argv: Sequence[str]
    env: Mapping[str, str] | None = None
    cwd: Path | None = None
    new_session: bool = False  # its own session: Ctrl-C at the terminal reaches us, not it
    stderr_to: Path | None = None  # the server's log, for clients that keep it


@dataclass(frozen=True)
class InProcess:
    """A server built by `factory`, served in a thread of this process over OS pipes."""

    factory: Callable[[], Server]


class Connection(Protocol):
    @property
    def running(self) -> bool:
        """Whether the server is still there (the process lives, the thread serves)."""
        ...

    async def end(self, grace: float) -> None:
        """Give the server `grace` seconds to end by itself, then end it."""
        ...


class _ProgramConnection:
    def __init__(self, client: JsonRPCClient) -> None:
        self._client = client

    @property
    def process(self) -> asyncio.subprocess.Process:
        assert self._client._server is not None
        return self._client._server

    @property
    def running(self) -> bool:
        return self.process.returncode is None

    async def end(self, grace: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.process.wait(), grace)
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()


class _PipeConnection:
    """The client's ends of the two pipes and the thread serving the other ends."""

    def __init__(
        self, thread: threading.Thread, to_server: asyncio.WriteTransport, from_server: Any
    ) -> None:
        self.thread = thread
        self._to_server = to_server
        self._from_server = from_server

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    async def end(self, grace: float) -> None:
        """Close the server's input: after `exit` that is the end of the conversation; to a
        server still serving, the editor is gone, and it stops its runs as it does when an
        editor quits. Its thread then ends (`grace` does not apply: there is nothing to kill);
        its last messages are still read meanwhile."""
        self._to_server.close()
        await self._join(STOP_SECONDS)
        self._from_server.close()  # a server still writing gets a broken pipe, not a hang
        if self.thread.is_alive():
            await self._join(STOP_SECONDS)
            raise RuntimeError(f"the in-process server did not stop within {STOP_SECONDS:g} s")

    async def _join(self, seconds: float) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.thread.join, seconds)


def _serve(server: Server, stdin: BinaryIO, stdout: BinaryIO) -> None:
    try:
        server.start_io(stdin, stdout)
    finally:  # the editor sees the end of its input, as when a server process exits
        for stream in (stdout, stdin):
            with contextlib.suppress(OSError):
                stream.close()


async def _start_in_process(client: JsonRPCClient, spec: InProcess) -> _PipeConnection:
    to_server_r, to_server_w = os.pipe()
    from_server_r, from_server_w = os.pipe()
    server = spec.factory()
    thread = threading.Thread(
        target=_serve,
        args=(server, os.fdopen(to_server_r, "rb"), os.fdopen(from_server_w, "wb")),
        name="kesi-in-process-server",
        daemon=True,
    )
    thread.start()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**24, loop=loop)
    read_transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader, loop=loop), os.fdopen(from_server_r, "rb")
    )
    write_transport, _ = await loop.connect_write_pipe(
        asyncio.Protocol, os.fdopen(to_server_w, "wb")
    )
    client.protocol.set_writer(write_transport)
    # What pygls' JsonRPCClient.start_io does with a process's stdout, with our pipe instead.
    task = asyncio.ensure_future(
        run_async(
            stop_event=client._stop_event,
            reader=reader,
            protocol=client.protocol,
            error_handler=client._report_server_error,
        )
    )
    client._async_tasks.append(task)
    return _PipeConnection(thread, write_transport, read_transport)


@contextlib.asynccontextmanager
async def connected(
    client: JsonRPCClient, server: Program | InProcess, grace: float = STOP_SECONDS
) -> AsyncIterator[Connection]:
    """Start `server` and connect `client` to it. On leaving, end the server
    (`Connection.end`: a program gets `grace` seconds to exit by itself when the body
    finished, none when it raised) and stop the client."""
    connection: _ProgramConnection | _PipeConnection
    if isinstance(server, InProcess):
        connection = await _start_in_process(client, server)
    else:
        kwargs: dict[str, Any] = {"env": dict(server.env) if server.env is not None else None}
        if server.cwd is not None:
            kwargs["cwd"] = str(server.cwd)
        if server.new_session:
            kwargs["start_new_session"] = True
        if server.stderr_to is not None:
            kwargs["stderr_to"] = server.stderr_to
        await client.start_io(*server.argv, **kwargs)
        connection = _ProgramConnection(client)
    finished = False
    try:
        yield connection
        finished = True
    finally:
        try:
            await connection.end(grace if finished else 0.0)
        finally:
            await asyncio.wait_for(client.stop(), STOP_SECONDS)  # type: ignore[no-untyped-call]
