"""The benchmarks' editor: KeSi's scripted editor (kesi_lsp.testing), with stopwatches.

The benchmarks measure the server, so their editor is the lean, trusting one (`BENCH`:
settings, progress, streamed words and saves; no review of its own; every permission prompt
answered "Allow once"). It is the same scripted editor the demo and the tests use, driving a
real `kesi-lsp` process over stdio; this module adds the stamps: every notification reaches
its handler with its arrival time (`time.monotonic()`, taken before any other handler runs),
and `timed_request` times a request from sending to the answer's arrival.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from lsprotocol.converters import get_converter

from kesi_lsp.testing import ALLOW_ONCE, BENCH, EditorClient

Handler = Callable[[float, Any], None]

_LSP = get_converter()


@dataclass
class LspClient:
    """One language server process and the conversation with it."""

    argv: list[str]
    env: Mapping[str, str] | None = None
    cwd: Path | None = None
    handlers: dict[str, Handler] = field(default_factory=dict)
    prompts: int = 0
    settings: dict[str, Any] = field(default_factory=dict)  # the `kesi` section it answers
    started_at: float = 0.0
    client: EditorClient = field(default_factory=lambda: EditorClient(BENCH))
    _profiler: asyncio.subprocess.Process | None = None

    def __post_init__(self) -> None:
        editor = self.client.editor
        editor.answer_prompt = self._allow_once
        editor.timeline.listeners.append(self._stamped)

    def _allow_once(self, params: types.ShowMessageRequestParams) -> str:
        self.prompts += 1
        return ALLOW_ONCE

    def _stamped(self, method: str, params: Any, stamp: float) -> None:
        handler = self.handlers.get(method)
        if handler is not None:
            handler(stamp, params)

    # --- process ---

    async def start(self) -> None:
        self.started_at = time.monotonic()
        self.client.settings = {"kesi": self.settings}
        cwd = {"cwd": str(self.cwd)} if self.cwd is not None else {}
        env = dict(self.env) if self.env is not None else None
        await self.client.start_io(*self.argv, env=env, limit=2**24, **cwd)
        target = os.environ.get("KESI_BENCH_PROFILE")
        if target:  # attach py-spy to the server (speedscope output), for finding slow spots
            self._profiler = await asyncio.create_subprocess_exec(
                "py-spy",
                "record",
                "--pid",
                str(self.pid),
                "--rate",
                "500",
                "--format",
                "speedscope",
                "--output",
                f"{target}.{self.pid}.json",
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
            )

    @property
    def process(self) -> asyncio.subprocess.Process:
        assert self.client._server is not None
        return self.client._server

    @property
    def pid(self) -> int:
        return self.process.pid

    async def stop(self) -> None:
        """shutdown + exit, then make sure the process is gone."""
        if self.client._server is None:
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.shutdown_async(None), 15)
            self.client.exit(None)
        try:
            await asyncio.wait_for(self.process.wait(), 15)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        if self._profiler is not None:
            with contextlib.suppress(ProcessLookupError):
                self._profiler.send_signal(signal.SIGINT)
            await self._profiler.wait()
        await asyncio.wait_for(self.client.stop(), 15)

    # --- requests ---

    def notify(self, method: str, params: Any) -> None:
        self.client.protocol.notify(method, params)

    async def request(self, method: str, params: Any, *, seconds: float = 30) -> Any:
        result, _ = await self.timed_request(method, params, seconds=seconds)
        return result

    async def timed_request(
        self, method: str, params: Any, *, seconds: float = 30
    ) -> tuple[Any, float]:
        """Send a request (JSON params); return its result and the round trip in seconds,
        up to the moment the answer arrived."""
        typed = types.METHOD_TO_TYPES.get(method)
        if typed is not None and typed[2] is not None and isinstance(params, Mapping):
            params = _LSP.structure(params, typed[2])
        arrived: list[float] = []
        sent = time.monotonic()
        future = self.client.protocol.send_request(method, params)
        future.add_done_callback(lambda _: arrived.append(time.monotonic()))
        result = await asyncio.wait_for(asyncio.wrap_future(future), seconds)
        return result, arrived[0] - sent

    # --- LSP conveniences ---

    async def initialize(
        self, root: Path | None, *, options: Mapping[str, Any] | None = None
    ) -> tuple[Any, float]:
        """`initialize` (timed) then `initialized`."""
        sent = time.monotonic()
        editor = self.client.editor
        result = await editor.initialize(
            [root] if root is not None else [], options=dict(options or {}), name="kesi-bench"
        )
        return result, time.monotonic() - sent

    def open(self, path: Path, language: str = "python") -> str:
        return self.client.editor.open(path, language).uri

    async def command(self, name: str, argument: Mapping[str, Any]) -> Any:
        return await self.client.editor.command(name, argument, seconds=30)
