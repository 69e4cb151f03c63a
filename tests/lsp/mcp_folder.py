"""What the `.mcp.json` tests over the real wire share: the question's words, the answer that
starts the folder's servers, and waiting until `kesi.mcp` shows a server no longer starting."""

from __future__ import annotations

import asyncio
import time
from typing import Any

START = "Start them for this folder"
QUESTION = "asks KeSi to start these MCP servers"


async def listed_ready(client: Any) -> dict[str, Any]:
    listed: dict[str, Any] = {}

    async def settled() -> bool:
        listed.clear()
        listed.update(await client.command("kesi.mcp", {}))
        return bool(listed["servers"]) and listed["servers"][0]["state"] != "starting"

    deadline = time.monotonic() + 120
    while not await settled():
        assert time.monotonic() < deadline, "the MCP server never finished starting"
        await asyncio.sleep(0.2)
    return listed
