"""The stalled-stream watchdog: a stream that goes silent is closed, not waited on forever.

The book chapter: 流式連線最危險的失敗模式不是斷開…而是靜默卡死 — a stream that breaks raises an
error at once, but one that hangs without closing (a proxy holding a dead connection, a server
that stopped writing) leaves the agent waiting on a socket. The SDK's own timeout is ten minutes
per read; an editor user gives up long before that, and the Cancel button is the only way out.

So each round-trip runs under an idle timer that every stream event re-arms (the API sends
`ping` events while the model thinks, so a healthy stream is never silent for long). It covers
the wait for the response headers too. A retry the SDK announces (`Notice(kind="retry")`)
re-arms it with room for the wait the API asked for (the SDK honours `retry-after` up to 60 s).
When the timer runs out, the round-trip is cancelled from inside, the stream is closed on the
way out, and the caller gets a `StreamStalledError` instead of a cancellation: the run ends
`failed` with a message that says the connection stalled, and the next request starts fresh.
"""

from __future__ import annotations

import asyncio
from types import TracebackType
from typing import Final

RETRY_ALLOWANCE: Final = 60.0
"""Extra seconds granted while the SDK waits to retry (its cap for `retry-after`)."""


class StreamStalledError(Exception):
    """Nothing arrived from the API for `seconds`; the watchdog closed the stream."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"no stream event for {seconds:g} s")
        self.seconds = seconds


class IdleWatchdog:
    """An idle timer around one round-trip (`async with`); `kick()` on every sign of life.

    `seconds` None or 0: no watchdog (the SDK's own timeouts only). When the timer runs out,
    leaving the `async with` raises StreamStalledError (not CancelledError), so the caller tells
    the watchdog's cancellation from the user's.
    """

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds if seconds and seconds > 0 else None
        self._timeout: asyncio.Timeout | None = None

    async def __aenter__(self) -> IdleWatchdog:
        if self.seconds is not None:
            self._timeout = asyncio.timeout(self.seconds)
            await self._timeout.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._timeout is None:
            return
        try:
            await self._timeout.__aexit__(exc_type, exc, tb)
        except TimeoutError as timed_out:
            assert self.seconds is not None
            raise StreamStalledError(self.seconds) from timed_out

    def kick(self, extra: float = 0.0) -> None:
        """Something arrived: the silence starts again from now (plus `extra` seconds)."""
        if self._timeout is None or self.seconds is None or self._timeout.expired():
            return
        loop = asyncio.get_running_loop()
        self._timeout.reschedule(loop.time() + self.seconds + extra)
