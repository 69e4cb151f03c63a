"""A one-shot ACP client for the benchmarks, as acpx is: spawn the agent, `initialize`, a
session, a prompt sent as soon as the session exists; newline-delimited JSON-RPC on stdio.
Every message the agent sends is stamped on arrival; a request from the agent (a permission,
a file) is answered with an error, so a benchmark never waits on it."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any


class AcpClient:
    """The agent process `argv`, spoken to over its stdin/stdout."""

    def __init__(self, argv: Sequence[str], env: Mapping[str, str]) -> None:
        self.argv = list(argv)
        self.env = dict(env)
        self.started_at = 0.0
        self._proc: asyncio.subprocess.Process | None = None
        self._answers: dict[int, asyncio.Future[tuple[float, Any]]] = {}
        self._next = 0
        self._reader: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.started_at = time.monotonic()
        self._proc = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
            env=self.env,
            limit=2**24,
        )
        self._reader = asyncio.ensure_future(self._read())

    def send(self, method: str, params: Mapping[str, Any]) -> asyncio.Future[tuple[float, Any]]:
        """Send a request now; the future is (arrival stamp, result) of its answer."""
        assert self._proc is not None and self._proc.stdin is not None
        self._next += 1
        answer: asyncio.Future[tuple[float, Any]] = asyncio.get_running_loop().create_future()
        self._answers[self._next] = answer
        message = {"jsonrpc": "2.0", "id": self._next, "method": method, "params": params}
        self._proc.stdin.write(json.dumps(message).encode() + b"\n")
        return answer

    async def initialize(self) -> float:
        """`initialize`; seconds from the spawn to its answer."""
        params = {"protocolVersion": 1, "clientCapabilities": {}}
        stamp, _ = await asyncio.wait_for(self.send("initialize", params), 120)
        return stamp - self.started_at

    async def prompt_at_once(self, cwd: Path, said: str) -> asyncio.Future[tuple[float, Any]]:
        """A session in `cwd`, and `said` sent the moment it exists (its answer: the future)."""
        new = {"cwd": str(cwd), "mcpServers": []}
        _, session = await asyncio.wait_for(self.send("session/new", new), 120)
        prompt = [{"type": "text", "text": said}]
        return self.send("session/prompt", {"sessionId": session["sessionId"], "prompt": prompt})

    async def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        while line := await self._proc.stdout.readline():
            stamp = time.monotonic()
            with contextlib.suppress(ValueError):
                message = json.loads(line)
                if "method" in message and "id" in message:  # the agent asks: say no
                    self._refuse(message["id"])
                elif (answer := self._answers.pop(message.get("id"), None)) and not answer.done():
                    answer.set_result((stamp, message.get("result", message.get("error"))))

    def _refuse(self, request_id: Any) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        error = {"code": -32601, "message": "not in this benchmark"}
        reply = {"jsonrpc": "2.0", "id": request_id, "error": error}
        self._proc.stdin.write(json.dumps(reply).encode() + b"\n")

    async def stop(self) -> None:
        """Close its input (the agent stops), and make sure it is gone."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), 20)
        except TimeoutError:
            proc.kill()
            await proc.wait()
        if self._reader is not None:
            self._reader.cancel()
