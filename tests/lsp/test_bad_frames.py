"""Bad input on the wire (issue 24): every malformed frame is answered, and the next good
request is too: the server never goes deaf.

pygls' own reader took a body for the next header after a `Content-Length` it could not read
(`abc`, `-5`, none), so it never answered again; a length too small or too large spilled one
message into the next the same way; `Content-Length: 1000000000000` asked for a terabyte; a
body that is not UTF-8 got no answer at all. The server here is the real one, on OS pipes
(in this process, and once as a real `kesi-lsp` process), written to byte by byte.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import threading
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.lsp.app import create_server
from tests.lsp.conftest import BUGGY, AgentCommand
from tests.lsp.servers import KESI_LSP, REPO, server_env

pytestmark = pytest.mark.e2e

Message = dict[str, Any]


def frame(body: bytes, length: bytes | int | None = None) -> bytes:
    said = length if isinstance(length, bytes) else str(length or len(body)).encode()
    return b"Content-Length: " + said + b"\r\n\r\n" + body


def request(request_id: int, method: str, params: Any = None) -> bytes:
    message: Message = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message).encode()


def permissions(request_id: int) -> bytes:
    """A request every server answers, whatever state it is in."""
    params = {"command": "kesi.permissions", "arguments": [{}]}
    return request(request_id, "workspace/executeCommand", params)


class RawEditor:
    """Bytes to the server, its messages back (answering what it asks)."""

    def __init__(self, write: Callable[[bytes], None], reader: asyncio.StreamReader) -> None:
        self.write = write
        self.reader = reader
        self.received: list[Message] = []
        self._arrived = asyncio.Event()
        self._pump = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        while True:
            try:
                head = await self.reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                return
            length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
            message = json.loads(await self.reader.readexactly(length))
            if "method" in message and "id" in message:  # the server asks: answer
                answer = [None] * len(message["params"].get("items", [])) or None
                reply = {"jsonrpc": "2.0", "id": message["id"], "result": answer}
                self.write(frame(json.dumps(reply).encode()))
            self.received.append(message)
            self._arrived.set()

    async def answer(self, request_id: int | str | None, seconds: float = 60) -> Message:
        """The first answer to `request_id` (None: the first answer with `id: null`)."""
        async with asyncio.timeout(seconds):
            while True:
                for message in self.received:
                    if "method" not in message and message.get("id") == request_id:
                        return message
                self._arrived.clear()
                await self._arrived.wait()

    async def initialize(self, folder: Path) -> None:
        params = {"capabilities": {}, "rootUri": folder.as_uri(), "processId": None}
        self.write(frame(request(1, "initialize", params)))
        await self.answer(1)
        self.write(frame(b'{"jsonrpc": "2.0", "method": "initialized", "params": {}}'))

    async def close(self) -> None:
        self._pump.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._pump


@contextlib.asynccontextmanager
async def in_process_server(runner: Any) -> AsyncIterator[RawEditor]:
    to_server_r, to_server_w = os.pipe()
    from_server_r, from_server_w = os.pipe()
    server = create_server(server_env(), runner)
    stdin, stdout = os.fdopen(to_server_r, "rb"), os.fdopen(from_server_w, "wb")
    thread = threading.Thread(target=server.start_io, args=(stdin, stdout), daemon=True)
    thread.start()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    transport, _ = await loop.connect_read_pipe(
        lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(from_server_r, "rb")
    )
    editor = RawEditor(lambda data: os.write(to_server_w, data) and None, reader)
    try:
        yield editor
    finally:
        os.close(to_server_w)  # the end of the input: the server stops
        await asyncio.to_thread(thread.join, 30)
        assert not thread.is_alive()
        await editor.close()
        transport.close()
        stdout.close()


GOOD = 2


def bad_inputs() -> dict[str, tuple[bytes, int | None, str]]:
    """name -> (bytes, the id of the error answer, what its message starts with)."""
    asking = request(7, "workspace/executeCommand", {"command": "kesi.cost", "arguments": [{}]})
    return {
        "not a number": (frame(asking, b"abc"), 7, "Parse error: Content-Length must be"),
        "negative": (frame(asking, b"-5"), 7, "Parse error: Content-Length must be"),
        "empty": (frame(asking, b""), 7, "Parse error: Content-Length must be"),
        "truncated header": (b"Content-Len\r\n\r\n" + asking, 7, "Parse error: bytes"),
        "no header": (asking, 7, "Parse error: bytes that are not an LSP header"),
        "too small": (frame(asking, 10), None, "Parse error: the message is not JSON"),
        "too large": (frame(asking, 500), 7, "Parse error: the message ended after"),
        "a terabyte": (frame(asking, 10**12), None, "Request too large: the message has"),
        "not UTF-8": (
            frame(b'{"jsonrpc": "2.0", "id": 7, "method": "kesi/\xff"}'),
            7,
            "Parse error: the message is not UTF-8 (byte 0xff",
        ),
        "nested 100,000 deep": (frame(b"[" * 100_000 + b"]" * 100_000), None, "Parse error"),
        "a batch": (frame(b"[" + asking + b"]"), None, "Invalid request"),
        "bad params": (frame(request(7, "textDocument/hover", 5)), 7, ""),
    }


@pytest.mark.parametrize("name", list(bad_inputs()))
async def test_a_bad_frame_is_answered_and_the_next_request_too(
    name: str, project: Path, scripted_agent: AgentCommand
) -> None:
    data, error_id, said = bad_inputs()[name]
    async with in_process_server(scripted_agent([]).runner()) as editor:
        await editor.initialize(project)
        editor.write(data)
        editor.write(frame(permissions(GOOD)))
        good = await editor.answer(GOOD)
        assert good["result"]["commands"] == [], good
        error = (await editor.answer(error_id))["error"]
        assert error["message"].startswith(said), error
        assert "Traceback" not in json.dumps(editor.received)
    assert (project / "calc.py").read_text() == BUGGY


async def test_a_bad_frame_split_in_small_pieces_is_found_all_the_same(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """Pipes deliver whatever they hold: the frame start may straddle two reads."""
    data = frame(request(7, "kesi/nothing"), 300) + frame(permissions(GOOD))
    async with in_process_server(scripted_agent([]).runner()) as editor:
        await editor.initialize(project)
        for start in range(0, len(data), 5):
            editor.write(data[start : start + 5])
            await asyncio.sleep(0)  # let each piece be read on its own
        assert (await editor.answer(GOOD))["result"]["commands"] == []
        assert (await editor.answer(7))["error"]["code"] == -32700


async def test_the_size_limit_is_a_setting(project: Path, scripted_agent: AgentCommand) -> None:
    big = request(7, "workspace/executeCommand", {"command": "kesi.cost", "arguments": [{}]})
    big = big[:-1] + b', "padding": "' + b"x" * (2 << 20) + b'"}'
    async with in_process_server(scripted_agent([]).runner()) as editor:
        params = {
            "capabilities": {},
            "rootUri": project.as_uri(),
            "initializationOptions": {"kesi": {"maxMessageMegabytes": 1}},
        }
        editor.write(frame(request(1, "initialize", params)))
        await editor.answer(1)
        editor.write(frame(big) + frame(permissions(GOOD)))
        assert (await editor.answer(GOOD))["result"]["commands"] == []
        error = (await editor.answer(None))["error"]
        assert error == {
            "code": -32600,
            "message": (
                f"Request too large: the message has {len(big)} bytes, over the limit of "
                "1048576 bytes (setting maxMessageMegabytes); it was dropped unread"
            ),
        }


@pytest.mark.subprocess
async def test_a_real_server_process_survives_every_bad_frame_without_allocating_them(
    project: Path,
) -> None:
    process = await asyncio.create_subprocess_exec(
        *KESI_LSP,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=server_env(),
        cwd=str(REPO),
    )
    assert process.stdin is not None and process.stdout is not None
    stdin = process.stdin
    editor = RawEditor(stdin.write, process.stdout)
    try:
        await editor.initialize(project)
        for number, (data, _, _) in enumerate(bad_inputs().values()):
            stdin.write(data)
            stdin.write(frame(permissions(100 + number)))
            assert (await editor.answer(100 + number))["result"]["commands"] == []
        status = await asyncio.to_thread(Path(f"/proc/{process.pid}/status").read_text)
        peak = status.split("VmHWM:")[1].split()[0]
        assert int(peak) < 1 << 20, f"peak resident memory {peak} kB"  # under 1 GB, not 1 TB
        stdin.write(frame(request(3, "shutdown")))
        await editor.answer(3)
        stdin.write(frame(b'{"jsonrpc": "2.0", "method": "exit"}'))
        # exit waits for the agent's loading in the background, if it is still under way
        assert await asyncio.wait_for(process.wait(), 60) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await editor.close()
    assert process.stderr is not None
    log = (await process.stderr.read()).decode()
    assert "refusing a message from the client: Request too large" in log
