"""What the `.mcp.json` tests over the real wire share: the question's words, the answer that
starts the folder's servers, and waiting until `kesi.mcp` shows its servers no longer starting
(every MCP test over the wire waits with it)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

START = "Start them for this folder"
QUESTION = "asks KeSi to start these MCP servers"


async def listed_ready(client: Any, count: int = 1, seconds: float = 180) -> dict[str, Any]:
    """`kesi.mcp` once it lists `count` servers and none is starting.

    The server sends no notification when an MCP server's state changes, so this asks again
    until it is true (node servers start slowly on a loaded host: hence the long deadline).
    """
    deadline = time.monotonic() + seconds
    while True:
        listed: dict[str, Any] = await client.command("kesi.mcp", {})
        states = [server["state"] for server in listed["servers"]]
        if len(states) >= count and "starting" not in states:
            return listed
        assert time.monotonic() < deadline, ("no MCP server finished starting", listed["lines"])
        await asyncio.sleep(0.2)
