"""Do the SDK's first-use work ahead of time: one streamed request against a canned answer.

The first request of a fresh process costs the `anthropic` SDK much more than later ones: it
builds the pydantic validators of the request and stream types on first use (~50 ms before the
request leaves, ~250 ms more while the reply is parsed, measured on this project's machine).
A run should not pay that in front of the user. So while the agent loads in the background
(`kesi_lsp.core.runs.agent`), one request in KeSi's own shape — system blocks with a cache
breakpoint, the tool definitions, a history with a tool call and its result — goes through a
throwaway `ModelClient` (the same construction and middleware as a run's) and comes back as a
canned stream (text, then a tool call). The answer comes from a one-request HTTP server on the
loopback interface, opened for the moment of the warm-up, so the real HTTP stack warms up too
(the connection pool loads its async backend on first use); nothing leaves the machine. What
the SDK built stays for the real runs.
"""

from __future__ import annotations

import asyncio
import json
import threading
from typing import Any, Final

import httpx2

from kesi_lsp.core import tools as tool_registry
from kesi_lsp.core.model.anthropic import ModelClient
from kesi_lsp.core.settings.agent import AgentSettings

_EVENTS: Final[list[tuple[str, dict[str, Any]]]] = [
    (
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": "msg_warmup",
                "type": "message",
                "role": "assistant",
                "model": "warm-up",
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {"input_tokens": 1, "output_tokens": 1},
            },
        },
    ),
    (
        "content_block_start",
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ),
    (
        "content_block_delta",
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}},
    ),
    ("content_block_stop", {"type": "content_block_stop", "index": 0}),
    (
        "content_block_start",
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_w", "name": "glob", "input": {}},
        },
    ),
    (
        "content_block_delta",
        {
            "type": "content_block_delta",
            "index": 1,
            "delta": {"type": "input_json_delta", "partial_json": '{"pattern": "*.py"}'},
        },
    ),
    ("content_block_stop", {"type": "content_block_stop", "index": 1}),
    (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use", "stop_sequence": None},
            "usage": {"output_tokens": 2},
        },
    ),
    ("message_stop", {"type": "message_stop"}),
]


def _canned() -> bytes:
    body = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in _EVENTS)
    data = body.encode("utf-8")
    head = (
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
        f"content-length: {len(data)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode("ascii") + data


async def _answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Read one request (headers and body) and answer it with the canned stream."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        await reader.readexactly(length)
        writer.write(_canned())
        await writer.drain()
    finally:
        writer.close()


def _params() -> dict[str, Any]:
    ephemeral = {"type": "ephemeral"}
    return {
        "model": "warm-up",
        "max_tokens": 16,
        "system": [
            {"type": "text", "text": "rules", "cache_control": ephemeral},
            {"type": "text", "text": "environment"},
        ],
        "tools": tool_registry.tool_schemas("en"),
        "messages": [
            {"role": "user", "content": "warm up"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Looking."},
                    {
                        "type": "tool_use",
                        "id": "toolu_a",
                        "name": "glob",
                        "input": {"pattern": "*"},
                    },
                ],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "toolu_a",
                        "content": "a.py",
                        "is_error": False,
                        "cache_control": ephemeral,
                    }
                ],
            },
        ],
    }


async def _warm() -> None:
    server = await asyncio.start_server(_answer, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    settings = AgentSettings(api_key="warm-up", base_url=f"http://127.0.0.1:{port}")
    http = httpx2.AsyncClient(trust_env=False)  # never through a proxy: it is the loopback
    model = ModelClient(settings, {}, max_retries=0, http_client=http)
    try:
        async with model.stream(_params(), on_notice=lambda notice: None, locale="en") as stream:
            async for _ in stream:
                pass
            await stream.get_final_message()
    finally:
        await model.aclose()
        server.close()
        await server.wait_closed()


def warm_sdk() -> None:
    """Run the canned request on an event loop of its own: in the calling thread (the agent
    loads in a worker thread), or in a thread of its own when this one already runs a loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        asyncio.run(_warm())
        return
    failure: list[BaseException] = []

    def warm() -> None:
        try:
            asyncio.run(_warm())
        except BaseException as exc:  # reported in the caller's thread
            failure.append(exc)

    worker = threading.Thread(target=warm, name="kesi-sdk-warm-up")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
