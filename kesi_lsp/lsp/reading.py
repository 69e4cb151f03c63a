"""The server's read loop on stdio: frames from `framing.py`, every one answered or handled.

It stands in for pygls' own `run_async` (pygls 2.1, `pygls.io_`), which hands each body to
`json.loads` and logs whatever fails, answering nothing. Here a body that is not UTF-8, not
JSON (nested too deeply for Python's parser included), not a JSON-RPC object, or a request
whose params pygls cannot read, is answered with the JSON-RPC error that says so, with the
request's id when there is one, so the editor never waits for an answer that cannot come.
Reading runs in pygls' thread pool, as pygls does it; the rest is on the event loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import Callable
from typing import Any, BinaryIO, Final

from pygls.exceptions import JsonRpcException
from pygls.io_ import StdoutWriter

from kesi_lsp.lsp.framing import Body, Event, FrameReader, Problem
from kesi_lsp.lsp.protocol import KesiProtocol

log = logging.getLogger(__name__)

CHUNK: Final = 65536
PARSE_ERROR: Final = -32700
INVALID_REQUEST: Final = -32600


def serve_frames(
    protocol: KesiProtocol,
    stdin: BinaryIO,
    stdout: BinaryIO,
    stop: threading.Event,
    limit: Callable[[], int],
    pool: Any,
) -> None:
    """Read and handle messages until the input ends or `stop` is set (pygls' `shutdown`).
    pygls' `exit` handler ends it with SystemExit; a client gone mid-answer, BrokenPipeError:
    both end the loop quietly, as pygls' own loop does."""
    protocol.set_writer(StdoutWriter(stdout))
    try:
        asyncio.run(_read(protocol, stdin, stop, FrameReader(limit), pool))
    except BrokenPipeError:
        log.error("the connection to the client is lost; shutting down")
    except (KeyboardInterrupt, SystemExit):
        pass


async def _read(
    protocol: KesiProtocol, stdin: BinaryIO, stop: threading.Event, frames: FrameReader, pool: Any
) -> None:
    loop = asyncio.get_running_loop()
    read = getattr(stdin, "read1", stdin.read)
    while not stop.is_set():
        chunk = await loop.run_in_executor(pool, read, CHUNK)
        events = frames.feed(chunk) if chunk else frames.end()
        for event in events:
            _handle(protocol, event)
        if not chunk:
            return


def _handle(protocol: KesiProtocol, event: Event) -> None:
    if isinstance(event, Problem):
        code = INVALID_REQUEST if event.message.startswith("Request too large") else PARSE_ERROR
        protocol.refuse(event.request_id, code, event.message)
        return
    message = _decode(protocol, event)
    if message is None:
        return
    try:
        protocol.handle_message(message)
    except Exception as exc:  # pygls' own loop logs these too; the server keeps serving
        log.exception("could not handle a message")
        protocol.report_error(exc)


def _decode(protocol: KesiProtocol, body: Body) -> Any | None:
    """The message in `body`, as pygls' types; None after answering what is wrong with it."""
    try:
        text = body.data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = body.data[exc.start : exc.start + 1].hex()
        why = f"Parse error: the message is not UTF-8 (byte 0x{bad} at offset {exc.start})"
        protocol.refuse(_plain_id(body.data.decode("utf-8", "replace")), PARSE_ERROR, why)
        return None
    try:
        message = json.loads(text, object_hook=protocol.structure_message)
    except (ValueError, RecursionError) as exc:
        detail = "nested too deeply" if isinstance(exc, RecursionError) else str(exc)
        protocol.refuse(None, PARSE_ERROR, f"Parse error: the message is not JSON ({detail})")
        return None
    except JsonRpcException as exc:  # pygls could not read the params of a known method
        request_id = _plain_id(text)
        if request_id is not None:
            protocol.refuse(request_id, exc.code, exc.message)
        else:
            log.warning("ignoring a notification pygls cannot read: %s", exc.message)
        return None
    if not hasattr(message, "jsonrpc"):
        why = "Invalid request: a message must be a JSON-RPC 2.0 object (batches are not LSP)"
        protocol.refuse(_plain_id(text), INVALID_REQUEST, why)
        return None
    return message


def _plain_id(text: str) -> int | str | None:
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict):
        return None
    found = message.get("id")
    return found if isinstance(found, int | str) and not isinstance(found, bool) else None
