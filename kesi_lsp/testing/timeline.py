"""Everything the server told the editor, in the order it arrived.

The scripted editor records each notification and request from the server as
`(method, params)` (`Timeline` is that list, so a test can look at the order itself) and offers
the questions a user's eye would ask of it: what did this run stream, how did it end, what did
the editor show or log. Listeners (the demo's screen, a benchmark's stopwatch) are called on
every entry with its arrival time, before anything else looks at it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from lsprotocol import types

Listener = Callable[[str, Any, float], None]
"""Called with (method, params, arrival time from `time.monotonic()`)."""

RUN_FINISHED = "kesi/runFinished"
STREAM = "kesi/stream"


class Timeline(list[tuple[str, Any]]):
    """The server's messages to the editor, oldest first (see the module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.listeners: list[Listener] = []
        self._finished: dict[str, asyncio.Event] = {}
        self._waiters: list[tuple[Callable[[str, Any], bool], asyncio.Future[Any]]] = []

    def record(self, method: str, params: Any) -> None:
        stamp = time.monotonic()
        for listener in self.listeners:
            listener(method, params, stamp)
        self.append((method, params))
        if method == RUN_FINISHED and isinstance(params, dict):
            self._finished.setdefault(str(params.get("runId")), asyncio.Event()).set()
        for match, future in list(self._waiters):
            if not future.done() and match(method, params):
                future.set_result(params)

    async def wait_for(self, match: Callable[[str, Any], bool], seconds: float = 60) -> Any:
        """Wait for the first message, already here or to come, that `match`es (method,
        params); return its params. What a client without `kesi/runFinished` waits on."""
        for method, params in self:
            if match(method, params):
                return params
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        entry = (match, future)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(future, seconds)
        finally:
            self._waiters.remove(entry)

    async def wait_shown(self, starts: str, seconds: float = 60) -> str:
        """Wait for a `window/showMessage` whose text starts with `starts`; return the text."""
        params = await self.wait_for(
            lambda m, p: m == types.WINDOW_SHOW_MESSAGE and p.message.startswith(starts), seconds
        )
        return str(params.message)

    async def wait_finished(self, run_id: str, seconds: float = 60) -> dict[str, Any]:
        """Wait for `kesi/runFinished` of `run_id` and return its params."""
        event = self._finished.setdefault(run_id, asyncio.Event())
        await asyncio.wait_for(event.wait(), seconds)
        return self.finished(run_id)

    def finished(self, run_id: str) -> dict[str, Any]:
        """The one `kesi/runFinished` of `run_id` (fails when there is none, or several)."""
        found = [p for m, p in self if m == RUN_FINISHED and p["runId"] == run_id]
        assert len(found) == 1, f"expected one kesi/runFinished for {run_id}, got {len(found)}"
        result: dict[str, Any] = found[0]
        return result

    def stream(self, run_id: str, kind: str | None = None) -> list[dict[str, Any]]:
        """The `kesi/stream` notifications of `run_id` (of one `kind`, if given)."""
        return [
            p
            for m, p in self
            if m == STREAM and p["runId"] == run_id and (kind is None or p["kind"] == kind)
        ]

    def log_lines(self) -> list[str]:
        """What the server wrote to the editor's log (`window/logMessage`)."""
        return [p.message for m, p in self if m == types.WINDOW_LOG_MESSAGE]

    def shown(self, kind: types.MessageType | None = None) -> list[str]:
        """The messages the editor showed (`window/showMessage`), of one `kind` if given."""
        return [
            p.message
            for m, p in self
            if m == types.WINDOW_SHOW_MESSAGE and (kind is None or p.type == kind)
        ]
