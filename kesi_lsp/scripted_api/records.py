"""What the scripted server remembers: each request, what became of it, and what went wrong.

Tests read these records while the server is still answering (a stream is half sent, a reply
stalls), so every change goes through one `Journal` lock and wakes whoever waits for a
condition on them (`ScriptedServer.wait_for`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from kesi_lsp.scripted_api.script import Step
from kesi_lsp.scripted_api.wire import SseEvent, Usage

Delivered = Literal["none", "partial", "full"]


@dataclass
class RecordedRequest:
    """One request as the server saw it, and what became of it (updated while streaming)."""

    number: int
    path: str
    headers: dict[str, str]
    body: Any
    arrived: float
    peer: str = ""  # the client's host:port: requests on one kept-alive connection share it
    stream: bool = False
    step_index: int | None = None
    label: str | None = None
    status: int = 0
    problems: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    usage: Usage | None = None
    delivered: Delivered = "none"
    stalled: bool = False
    client_gone: bool = False
    done: bool = False

    @property
    def retry_count(self) -> int:
        """The SDK's `x-stainless-retry-count` header (0 on a first attempt)."""
        try:
            return int(self.headers.get("x-stainless-retry-count", "0"))
        except ValueError:
            return 0

    @property
    def messages(self) -> list[Any]:
        messages = self.body.get("messages") if isinstance(self.body, Mapping) else None
        return messages if isinstance(messages, list) else []


StepChooser = Callable[[RecordedRequest], Step | None]
"""Picks the step that answers a valid request, given the request (None: no reply left)."""


@dataclass(frozen=True)
class SentEvent:
    """One SSE event the server has just written and flushed (what `on_event_sent` gets).

    `name` is as `RecordedRequest.events` lists it (the delta type for a delta), `data` the
    event's JSON payload, `sent_at` the `time.monotonic()` right after the flush: on Linux the
    system-wide monotonic clock, so another process can compare its own stamps with it.
    """

    request: RecordedRequest
    name: str
    data: Mapping[str, Any]
    sent_at: float


EventHook = Callable[[SentEvent], None]


@dataclass(frozen=True)
class UsageRecord:
    """What one reply reported as usage, and how much of it reached the client."""

    request: int
    usage: Usage
    delivered: Delivered


class Journal:
    """Every request and problem, behind one lock; each change wakes `wait_until`."""

    def __init__(self) -> None:
        self._changed = threading.Condition(threading.RLock())
        self._requests: list[RecordedRequest] = []
        self._problems: list[str] = []

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._changed:
            return list(self._requests)

    @property
    def problems(self) -> list[str]:
        with self._changed:
            return list(self._problems)

    def open(
        self, path: str, headers: dict[str, str], body: Any, peer: str = ""
    ) -> RecordedRequest:
        """Record a request that just arrived, numbered in order of arrival from 1."""
        stream = bool(body.get("stream")) if isinstance(body, dict) else False
        with self._changed:
            number = len(self._requests) + 1
            request = RecordedRequest(
                number=number,
                path=path,
                headers=headers,
                body=body,
                arrived=time.monotonic(),
                peer=peer,
                stream=stream,
            )
            self._requests.append(request)
            self._changed.notify_all()
        return request

    def update(self, request: RecordedRequest, **changes: Any) -> None:
        with self._changed:
            for key, value in changes.items():
                setattr(request, key, value)
            self._changed.notify_all()

    def problem(self, request: RecordedRequest, text: str) -> None:
        with self._changed:
            request.problems.append(text)
            self._problems.append(f"request #{request.number}: {text}")
            self._changed.notify_all()

    def sending(self, request: RecordedRequest, event: SseEvent) -> Delivered:
        """Record `event` as sent before it is written (the client may react at once); return
        what `delivered` was before, for `unsent`."""
        with self._changed:
            before = request.delivered
            request.events.append(event.label)
            if event.name == "message_start":
                request.delivered = "partial"
            elif event.name == "message_delta":
                request.delivered = "full"
            self._changed.notify_all()
            return before

    def unsent(self, request: RecordedRequest, delivered: Delivered) -> None:
        """The event `sending` recorded never left: take it back."""
        with self._changed:
            request.events.pop()
            request.delivered = delivered
            self._changed.notify_all()

    def wait_until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Block until `condition()` holds (re-checked on every change); False on timeout."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
            return True
