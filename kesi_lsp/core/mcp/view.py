"""A server as the listings carry it (`kesi.mcp`, ACP, the doctor): plain data, no SDK."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ServerView:
    """One server as listed: name, source, transport, state, the reason in words, its tools."""

    name: str
    source: str
    transport: str
    state: str
    reason: str | None
    tools: list[str]
