"""What the end-to-end tests of the working loop's later parts share (compaction, the search
sub-agent, the guards, resume): scripted replies, project files, settings, and waiting for
something the server or the scripted API reports (never a fixed sleep)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kesi_lsp.scripted_api import Step, reply, tool_use
from tests.lsp.clients import KesiClient

SUMMARY = (
    "## Task\nRead a.py, b.py and c.py.\n## Decisions\nNone.\n## Files changed\nNone.\n"
    "## What failed\nNothing.\n## Open\nAnswer the question.\n## Facts\na.py:1 defines A_0."
)
SMALL_BUDGET = {"kesi": {"locale": "en", "contextBudget": 1000, "contextTrimming": False}}


def files(root: Path, *names: str, lines: int = 200) -> None:
    """Modules of about `lines` * 25 characters (200 lines: about 1,250 estimated tokens)."""
    for name in names:
        body = "".join(f"{name[0].upper()}_{i} = {i}  # a line of {name}\n" for i in range(lines))
        (root / name).write_text(body, encoding="utf-8")


def read(name: str, **kw: Any) -> Step:
    return reply(f"Reading {name}.", tool_use("read_file", {"file_path": name}), **kw)


def first_text(message: dict[str, Any]) -> str:
    content = message["content"]
    return content if isinstance(content, str) else str(content[0].get("text", ""))


async def until(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait until `condition()` holds (checked every 20 ms), or fail after `seconds`."""
    deadline = asyncio.get_running_loop().time() + seconds
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "it never happened"
        await asyncio.sleep(0.02)


def notices(client: KesiClient, run_id: str, kind: str) -> list[str]:
    return [p["text"] for p in client.stream(run_id, "notice") if p.get("notice") == kind]
