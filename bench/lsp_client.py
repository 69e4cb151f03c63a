"""A lean LSP client over stdio that stamps every message the moment it arrives.

The benchmarks measure the server, so the client does as little as possible: it frames and
parses JSON-RPC with the standard library, answers the server's requests the way an editor
that trusts KeSi would (settings: none; progress: yes; permission prompts: "Allow once"), and
records the arrival time (`time.monotonic()`) of each notification before anything else.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

Handler = Callable[[float, Any], None]

KESI_CAPABILITIES: dict[str, Any] = {
    "general": {"positionEncodings": ["utf-16"]},
    "workspace": {
        "applyEdit": True,
        "configuration": True,
        "workspaceFolders": True,
        "workspaceEdit": {"documentChanges": True},
        "didChangeConfiguration": {"dynamicRegistration": False},
        "executeCommand": {"dynamicRegistration": False},
    },
    "textDocument": {
        "synchronization": {"didSave": True},
        "codeAction": {
            "codeActionLiteralSupport": {
                "codeActionKind": {"valueSet": ["", "quickfix", "refactor", "refactor.rewrite"]}
            }
        },
    },
    "window": {
        "workDoneProgress": True,
        "showMessage": {"messageActionItem": {"additionalPropertiesSupport": False}},
    },
    "experimental": {"kesi": {"stream": True, "saveDocuments": True}},
}


class ServerError(Exception):
    """The server answered a request with a JSON-RPC error."""


@dataclass
class LspClient:
    """One language server process and the conversation with it."""

    argv: list[str]
    env: Mapping[str, str] | None = None
    cwd: Path | None = None
    proc: asyncio.subprocess.Process | None = None
    handlers: dict[str, Handler] = field(default_factory=dict)
    prompts: int = 0
    settings: dict[str, Any] = field(default_factory=dict)  # the `kesi` section it answers
    stderr: int | None = asyncio.subprocess.DEVNULL  # or a file descriptor for the server log
    started_at: float = 0.0
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _pending: dict[int, asyncio.Future[tuple[float, Any]]] = field(default_factory=dict)
    _reader: asyncio.Task[None] | None = None
    _profiler: asyncio.subprocess.Process | None = None

    # --- process ---

    async def start(self) -> None:
        self.started_at = time.monotonic()
        self.proc = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=self.stderr,
            env=dict(self.env) if self.env is not None else None,
            cwd=self.cwd,
            limit=2**24,
        )
        self._reader = asyncio.create_task(self._read_loop())
        target = os.environ.get("KESI_BENCH_PROFILE")
        if target:  # attach py-spy to the server (speedscope output), for finding slow spots
            self._profiler = await asyncio.create_subprocess_exec(
                "py-spy",
                "record",
                "--pid",
                str(self.proc.pid),
                "--rate",
                "500",
                "--format",
                "speedscope",
                "--output",
                f"{target}.{self.proc.pid}.json",
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    async def stop(self) -> None:
        """shutdown + exit, then make sure the process is gone."""
        if self.proc is None:
            return
        with contextlib.suppress(Exception):
            await self.request("shutdown", None, seconds=15)
            self.notify("exit", None)
        try:
            await asyncio.wait_for(self.proc.wait(), 15)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()
        if self._profiler is not None:
            with contextlib.suppress(ProcessLookupError):
                self._profiler.send_signal(signal.SIGINT)
            await self._profiler.wait()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader

    # --- sending ---

    def _send(self, message: Mapping[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        body = json.dumps(message, separators=(",", ":")).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def request(self, method: str, params: Any, *, seconds: float = 30) -> Any:
        result, _ = await self.timed_request(method, params, seconds=seconds)
        return result

    async def timed_request(
        self, method: str, params: Any, *, seconds: float = 30
    ) -> tuple[Any, float]:
        """Send a request; return its result and the round trip in seconds."""
        msg_id = next(self._ids)
        future: asyncio.Future[tuple[float, Any]] = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = future
        sent = time.monotonic()
        self._send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        arrived, result = await asyncio.wait_for(future, seconds)
        return result, arrived - sent

    # --- receiving ---

    async def _read_loop(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        stdout = self.proc.stdout
        while True:
            try:
                header = await stdout.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionError):
                break
            length = 0
            for line in header.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            body = await stdout.readexactly(length)
            stamp = time.monotonic()
            self._dispatch(stamp, json.loads(body))
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionError("the server closed its output"))

    def _dispatch(self, stamp: float, message: dict[str, Any]) -> None:
        if "method" not in message:
            future = self._pending.pop(message.get("id"), None)  # type: ignore[arg-type]
            if future is None or future.done():
                return
            if "error" in message:
                future.set_exception(ServerError(json.dumps(message["error"])))
            else:
                future.set_result((stamp, message.get("result")))
            return
        method, params = message["method"], message.get("params")
        if "id" in message:
            self._answer(message["id"], method, params)
            return
        handler = self.handlers.get(method)
        if handler is not None:
            handler(stamp, params)

    def _answer(self, msg_id: Any, method: str, params: Any) -> None:
        result: Any = None
        if method == "workspace/configuration":
            result = [self.settings for _ in (params or {}).get("items", [])]
        elif method == "window/showMessageRequest":
            self.prompts += 1
            result = {"title": "Allow once"}
        elif method == "workspace/applyEdit":
            result = {"applied": False}
        elif method == "kesi/reviewEdit":
            result = {"decision": "reject"}
        elif method not in (
            "window/workDoneProgress/create",
            "client/registerCapability",
            "kesi/saveDocuments",
        ):
            error = {"code": -32601, "message": f"method not found: {method}"}
            self._send({"jsonrpc": "2.0", "id": msg_id, "error": error})
            return
        self._send({"jsonrpc": "2.0", "id": msg_id, "result": result})

    # --- LSP conveniences ---

    async def initialize(
        self, root: Path | None, *, options: Mapping[str, Any] | None = None
    ) -> tuple[Any, float]:
        """`initialize` (timed) then `initialized`."""
        folders = [{"uri": root.as_uri(), "name": root.name}] if root is not None else None
        params = {
            "processId": None,
            "rootUri": root.as_uri() if root is not None else None,
            "workspaceFolders": folders,
            "capabilities": KESI_CAPABILITIES,
            "initializationOptions": dict(options or {}),
            "clientInfo": {"name": "kesi-bench"},
        }
        result, seconds = await self.timed_request("initialize", params)
        self.notify("initialized", {})
        return result, seconds

    def open(self, path: Path, language: str = "python") -> str:
        uri = path.as_uri()
        text = path.read_text(encoding="utf-8")
        item = {"uri": uri, "languageId": language, "version": 1, "text": text}
        self.notify("textDocument/didOpen", {"textDocument": item})
        return uri

    async def command(self, name: str, argument: Mapping[str, Any]) -> Any:
        return await self.request(
            "workspace/executeCommand", {"command": name, "arguments": [dict(argument)]}
        )
