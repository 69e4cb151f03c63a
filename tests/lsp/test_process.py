"""`kesi-lsp` as a program: --version, stdio that carries nothing but JSON-RPC, TCP.

The stdout test talks to the server byte by byte (no LSP library in between) and parses every
byte it wrote: a single stray line, from a print, a log record or a child process that
inherited the server's stdout, would break the editor's connection.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp import __version__
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import new_editor
from tests.lsp.conftest import AgentCommand
from tests.lsp.helpers import api_env
from tests.lsp.servers import REPO, server_env
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.subprocess]

KESI_LSP = shutil.which("kesi-lsp", path=str(Path(sys.executable).parent)) or "kesi-lsp"


def test_version() -> None:
    result = subprocess.run(
        [KESI_LSP, "--version"], capture_output=True, text=True, timeout=60, check=True
    )
    assert result.stdout.strip() == f"kesi-lsp {__version__}"


def parse_frames(data: bytes) -> list[dict[str, Any]]:
    """Every byte must belong to a `Content-Length` framed JSON-RPC 2.0 message."""
    messages = []
    rest = data
    while rest:
        head, sep, rest = rest.partition(b"\r\n\r\n")
        assert sep, f"unframed bytes on stdout: {head[:200]!r}"
        headers = dict(line.split(b": ", 1) for line in head.split(b"\r\n"))
        assert set(headers) <= {b"Content-Length", b"Content-Type"}, headers
        length = int(headers[b"Content-Length"])
        body, rest = rest[:length], rest[length:]
        assert len(body) == length
        message = json.loads(body)
        assert message["jsonrpc"] == "2.0"
        messages.append(message)
    return messages


class RawClient:
    """Just enough LSP client, over raw pipes, answering whatever the server asks."""

    def __init__(
        self, process: asyncio.subprocess.Process, answer: Callable[[dict[str, Any]], Any]
    ):
        self.process = process
        self.answer = answer
        self.stdout = bytearray()
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.reader = asyncio.ensure_future(self._read())

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def _read(self) -> None:
        assert self.process.stdout is not None
        buffer = b""
        while chunk := await self.process.stdout.read(65536):
            self.stdout += chunk
            buffer += chunk
            while b"\r\n\r\n" in buffer:
                head, _, tail = buffer.partition(b"\r\n\r\n")
                length = int(dict(h.split(b": ") for h in head.split(b"\r\n"))[b"Content-Length"])
                if len(tail) < length:
                    break
                message = json.loads(tail[:length])
                buffer = tail[length:]
                if "method" in message and "id" in message:  # a request from the server
                    self.send({"id": message["id"], "result": self.answer(message)})
                await self.inbox.put(message)

    async def wait(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        while True:
            message = await asyncio.wait_for(self.inbox.get(), 60)
            if match(message):
                return message


def answer_everything(message: dict[str, Any]) -> Any:
    method = message["method"]
    if method == "window/showMessageRequest":
        return {"title": "Allow once"}
    if method == "workspace/configuration":
        return [None for _ in message["params"]["items"]]
    if method == "workspace/applyEdit":
        return {"applied": False}
    return None


async def talk(
    command: list[str], project: Path, env: dict[str, str], ask: str, init: Any = None
) -> tuple[bytes, bytes]:
    """Initialize, open a file, run `kesi.ask`, shut down; return (stdout, stderr)."""
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=server_env(env),
        cwd=str(REPO),
    )
    client = RawClient(process, answer_everything)
    capabilities = {
        "window": {"workDoneProgress": True},
        "workspace": {"applyEdit": True, "configuration": True},
        "experimental": {"kesi": {"stream": True}},
    }
    folder = {"uri": project.as_uri(), "name": "project"}
    client.send(
        {
            "id": 1,
            "method": "initialize",
            "params": {
                "capabilities": capabilities,
                "workspaceFolders": [folder],
                "initializationOptions": init,
            },
        }
    )
    await client.wait(lambda m: m.get("id") == 1)
    client.send({"method": "initialized", "params": {}})
    calc = (project / "calc.py").as_uri()
    client.send(
        {
            "method": "textDocument/didOpen",
            "params": {
                "textDocument": {
                    "uri": calc,
                    "languageId": "python",
                    "version": 1,
                    "text": "x = 1\n",
                }
            },
        }
    )
    client.send(
        {
            "id": 2,
            "method": "workspace/executeCommand",
            "params": {"command": "kesi.ask", "arguments": [{"prompt": ask}]},
        }
    )
    await client.wait(lambda m: m.get("id") == 2 and "result" in m)
    finished = await client.wait(lambda m: m.get("method") == "kesi/runFinished")
    assert finished["params"]["status"] == "done", finished
    client.send({"id": 3, "method": "shutdown"})
    await client.wait(lambda m: m.get("id") == 3)
    client.send({"method": "exit"})
    assert await asyncio.wait_for(process.wait(), 30) == 0
    await client.reader
    assert process.stderr is not None
    return bytes(client.stdout), await process.stderr.read()


async def test_stdout_carries_only_json_rpc(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(
        script(
            reply("Looking around.\n", tool_use("run_command", {"command": "echo from-a-command"})),
            reply(tool_use("list_files", {})),
            reply("All done.\nBye."),
        )
    )
    log_file = project.parent / "logs" / "kesi.log"
    command = [KESI_LSP, "-v", "--log-file", str(log_file)]
    secret = "sk-ant-secret-only-in-the-settings"
    stdout, stderr = await talk(command, project, api_env(api), "look around", {"apiKey": secret})
    messages = parse_frames(stdout)
    methods = [m.get("method") for m in messages]
    assert "kesi/stream" in methods and methods.count("kesi/runFinished") == 1
    assert b"DEBUG" in stderr  # -v logs, on stderr only
    assert "kesi_lsp.lsp.commands: run " in log_file.read_text()  # ... and to --log-file
    headers = {k.lower(): v for k, v in api.requests[0].headers.items()}
    assert secret in (headers.get("x-api-key") or headers["authorization"])  # the setting ...
    assert secret.encode() not in stderr and secret not in log_file.read_text()  # ... not logged


async def test_a_child_inheriting_stdout_cannot_corrupt_it(
    project: Path, scripted_agent: AgentCommand
) -> None:
    steps = [{"do": "system", "command": "echo leaked-to-fd-1; echo leaked-to-python >&1"}]
    stdout, stderr = await talk(scripted_agent(steps).argv, project, {}, "leak")
    parse_frames(stdout)
    assert b"leaked" not in stdout and b"leaked-to-fd-1" in stderr


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_tcp(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(script(reply("Hello over TCP.")))
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        KESI_LSP, "--tcp", "--host", "127.0.0.1", "--port", str(port),
        env=server_env(api_env(api)), cwd=str(REPO),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        # The server serves one client and stops when it leaves: no probing connection.
        editor = new_editor("vscode+kesi")
        client = editor.lsp
        for _ in range(600):
            try:
                await client.start_tcp("127.0.0.1", port)
                break
            except ConnectionRefusedError:
                await asyncio.sleep(0.1)

        await editor.initialize([project])
        done = await editor.run("kesi.ask", {"prompt": "hi"})
        assert done["status"] == "done" and done["text"] == "Hello over TCP."
        await client.shutdown_async(None)
        client.exit(None)
        assert await asyncio.wait_for(process.wait(), 30) == 0
        await asyncio.wait_for(client.stop(), 10)
        assert not editor.problems
        assert process.stdout is not None
        assert await process.stdout.read() == b""  # TCP mode: stdout stays empty
    finally:
        if process.returncode is None:
            process.kill()
