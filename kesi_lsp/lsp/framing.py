"""LSP's base protocol, read so that no frame can leave the server deaf (issue 24).

pygls reads `Content-Length: N` and then exactly N bytes, trusting both. A header it cannot read
(`abc`, `-5`, a missing one) made it skip the blank line and take the body for the next header,
which ate the header after it, and so on for ever: the server was alive but never answered
again. A length too small left the rest of the body in front of the next header (the same
spiral); a length too large waited for bytes that belonged to the next message;
`Content-Length: 1000000000000` asked the OS for a terabyte. This reader finds its way back
instead:

- A frame can only start where `Content-Length: <digits>` ends a line with a real CR LF. A
  valid JSON body never holds that sequence (a JSON string cannot hold a raw CR or LF, and the
  words outside a string are not JSON), so it marks the next frame reliably: after a header
  that cannot be read, the reader skips to it; a body that turns out to hold one was cut short
  (its length was too large), and the frame in it is read as a frame.
- A length above the limit (`maxMessageMegabytes`, 64 MB by default) is refused and its bytes
  are dropped as they arrive, never kept; a frame starting inside them ends the skip (the
  length was a lie).
- Every problem is answered with a JSON-RPC error, with the request's `id` when it can be read
  (the editor then stops waiting for that request), else `id: null`, as JSON-RPC says for a
  message that cannot be parsed.

`FrameReader` is the pure part (bytes in, bodies and problems out); `reading.py` runs it
on the server's stdin.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

HEADER_BYTES: Final = 8192
"""Headers longer than this before their blank line are not headers."""

FRAME_START: Final = re.compile(rb"content-length:[ \t]*\d+[ \t]*\r\n", re.IGNORECASE)
HEADER_LINE: Final = re.compile(rb"([A-Za-z0-9!#$%&'*+.^_`|~-]+):[ \t]*([^\r\n]*?)[ \t]*\r\n")
HEADER_BEGUN: Final = re.compile(rb"[A-Za-z0-9!#$%&'*+.^_`|~-]*(:[^\r\n]*)?\r?\Z")
"""The start of a header line whose end has not arrived yet."""
OVERLAP: Final = 64
"""Bytes kept from a chunk to find a frame start that straddles two chunks."""

State = Literal["headers", "body", "skip", "resync"]


@dataclass(frozen=True)
class Body:
    """A frame's body, exactly as many bytes as its `Content-Length` said."""

    data: bytes


@dataclass(frozen=True)
class Problem:
    """Bytes that are not a frame: what is wrong, in a sentence, and the request's id if the
    bytes showed one."""

    message: str
    request_id: int | str | None = None


Event = Body | Problem


class FrameReader:
    """Bytes from the client in (`feed`), bodies and problems out. `limit` is read for each
    frame, so a changed setting applies from the next one."""

    def __init__(self, limit: Callable[[], int]) -> None:
        self._limit = limit
        self._buffer = bytearray()
        self._state: State = "headers"
        self._length = 0  # the body's length, or the bytes still to skip
        self._scanned = 0  # how far into the body a frame start was looked for
        self._pending: str | None = None  # the problem of the bytes being skipped to a frame

    def feed(self, chunk: bytes) -> list[Event]:
        self._buffer += chunk
        events: list[Event] = []
        while self._step(events):
            pass
        return events

    def end(self) -> list[Event]:
        """The input ended: what was left half-read, as a problem (nothing if nothing was)."""
        left = bytes(self._buffer).strip()
        if self._state == "body" or (self._state != "skip" and left):
            why = self._pending or "the input ended in the middle of a message"
            return [Problem(why, _request_id(left))]
        return []

    def _step(self, events: list[Event]) -> bool:
        """One move of the state machine; False when it must wait for more bytes."""
        if self._state == "headers":
            return self._headers(events)
        if self._state == "body":
            return self._body(events)
        if self._state == "skip":
            return self._skip()
        return self._resync(events)

    def _headers(self, events: list[Event]) -> bool:
        buffer = self._buffer
        start = 0
        while buffer.startswith(b"\r\n", start):  # blank lines between frames: harmless
            start += 2
        if start:
            del buffer[:start]
        lines: list[tuple[bytes, bytes]] = []
        position = 0
        while (line := HEADER_LINE.match(buffer, position)) is not None:
            lines.append((line.group(1).lower(), line.group(2)))
            position = line.end()
            if buffer.startswith(b"\r\n", position):
                del buffer[: position + 2]
                return self._frame(lines, events)
        if position > HEADER_BYTES or not HEADER_BEGUN.match(buffer, position):
            self._pending = "Parse error: bytes that are not an LSP header (Content-Length: N)"
            self._state = "resync"
            return True
        return False  # the headers' end has not arrived yet

    def _frame(self, lines: list[tuple[bytes, bytes]], events: list[Event]) -> bool:
        values = [value for name, value in lines if name == b"content-length"]
        if not values:
            return self._unframed("Parse error: a message without a Content-Length header")
        raw = values[-1]
        if not raw.isdigit():
            shown = raw[:40].decode("ascii", "replace")
            return self._unframed(
                f"Parse error: Content-Length must be a number of bytes, not {shown!r}"
            )
        length, limit = int(raw), self._limit()
        if length > limit:
            events.append(
                Problem(
                    f"Request too large: the message has {length} bytes, over the limit of "
                    f"{limit} bytes (setting maxMessageMegabytes); it was dropped unread"
                )
            )
            self._state, self._length = "skip", length
            return True
        self._state, self._length, self._scanned = "body", length, 0
        return True

    def _unframed(self, why: str) -> bool:
        """A header that gives no length: skip its body to the next frame."""
        self._pending = why
        self._state = "resync"
        return True

    def _body(self, events: list[Event]) -> bool:
        buffer, length = self._buffer, self._length
        arrived = min(len(buffer), length)
        cut = FRAME_START.search(buffer, max(0, self._scanned - OVERLAP), arrived)
        if cut is not None:
            part = bytes(buffer[: cut.start()])
            del buffer[: cut.start()]
            events.append(
                Problem(
                    f"Parse error: the message ended after {len(part)} of the {length} bytes "
                    "its Content-Length announced",
                    _request_id(part),
                )
            )
            self._state = "headers"
            return True
        if len(buffer) < length:
            self._scanned = len(buffer)
            return False
        events.append(Body(bytes(buffer[:length])))
        del buffer[:length]
        self._state = "headers"
        return True

    def _skip(self) -> bool:
        buffer = self._buffer
        here = min(len(buffer), self._length)
        cut = FRAME_START.search(buffer, 0, here)
        if cut is not None:
            del buffer[: cut.start()]  # the length was a lie: a frame starts here
            self._state = "headers"
            return True
        if here == self._length:
            del buffer[:here]
            self._state = "headers"
            return True
        drop = max(0, here - OVERLAP)
        del buffer[:drop]
        self._length -= drop
        return False

    def _resync(self, events: list[Event]) -> bool:
        buffer = self._buffer
        found = _next_frame(buffer)
        if found is None:
            orphan = bytes(buffer).strip()
            request_id = _request_id(orphan) if orphan.endswith((b"}", b"]")) else None
            if request_id is not None:  # a whole request: answer it now, not at the next one
                events.append(Problem(self._pending or "Parse error", request_id))
                self._pending = None
                buffer.clear()
            elif len(buffer) > self._limit():
                del buffer[: len(buffer) - OVERLAP]
            return False
        orphan = bytes(buffer[:found]).strip()
        del buffer[:found]
        if orphan or self._pending:
            why = self._pending or "Parse error: bytes between messages"
            events.append(Problem(why, _request_id(orphan)))
        self._pending = None
        self._state = "headers"
        return True


def _next_frame(buffer: bytearray) -> int | None:
    found = FRAME_START.search(buffer)
    return found.start() if found is not None else None


def _request_id(data: bytes) -> int | str | None:
    """The `id` of a request in `data` (after any headers), if it is one whole JSON object
    that has one."""
    try:
        message = json.loads(data.rpartition(b"\r\n\r\n")[2].decode("utf-8", "replace"))
    except (ValueError, RecursionError):
        return None
    if not isinstance(message, dict) or "method" not in message:
        return None
    request_id = message.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, int | str):
        return None
    return request_id
