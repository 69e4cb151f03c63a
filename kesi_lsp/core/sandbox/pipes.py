"""Leave no open pipe behind when a child process is done (shared by grep and run_command).

asyncio keeps a subprocess transport open until every pipe has reached EOF. A reader that
stopped early (the capture cap) leaves unread data behind and the transport paused, and a
process that escaped its group can hold a pipe open for ever; either way the transport would be
finalised after its event loop closed. So once the process is gone, the rest of each pipe is
read and thrown away for a short while, and a pipe that still does not end is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

SETTLE_SECONDS: Final = 3.0


async def _discard(stream: asyncio.StreamReader) -> None:
    while await stream.read(65536):
        pass


async def settle(proc: asyncio.subprocess.Process, *, seconds: float = SETTLE_SECONDS) -> None:
    """Drain `proc`'s output pipes to EOF (at most `seconds`), else close its transport."""
    streams = [s for s in (proc.stdout, proc.stderr) if s is not None]
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(_discard(s) for s in streams)), seconds)
    finally:
        if not all(stream.at_eof() for stream in streams):
            transport = getattr(proc, "_transport", None)
            if isinstance(transport, asyncio.SubprocessTransport):
                transport.close()
