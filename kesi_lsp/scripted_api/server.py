"""The scripted Messages API server: stdlib HTTP on 127.0.0.1, one background thread.

Each request is validated (`validate.py`), recorded, and answered by the next script step
(`script.py`) in the real wire format (`wire.py`), with the step's fault injected. An invalid
request, a failed expectation or an exhausted script is answered with a clear 400 and recorded
in `problems`, which the pytest fixture turns into a test failure.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from kesi_lsp.scripted_api.expect import check_expectations
from kesi_lsp.scripted_api.script import Fault, Script, Step
from kesi_lsp.scripted_api.tokens import PromptCache, output_tokens
from kesi_lsp.scripted_api.validate import validate_request
from kesi_lsp.scripted_api.wire import (
    SseEvent,
    Usage,
    content_json,
    error_event,
    message_json,
    plan_events,
)

Delivered = Literal["none", "partial", "full"]


@dataclass
class RecordedRequest:
    """One request as the server saw it, and what became of it (updated while streaming)."""

    number: int
    path: str
    headers: dict[str, str]
    body: Any
    arrived: float
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


class _Cursor:
    """Which step answers the next request."""

    def __init__(self, script: Script) -> None:
        self._steps = script.steps
        self._index = 0
        self._used = 0

    def take(self) -> tuple[int, Step] | None:
        while self._index < len(self._steps):
            step = self._steps[self._index]
            if step.forever:
                return self._index, step
            if self._used < step.times:
                self._used += 1
                return self._index, step
            self._index += 1
            self._used = 0
        return None

    @property
    def remaining(self) -> int:
        """Requests still answerable (-1: unlimited)."""
        total = 0
        for i in range(self._index, len(self._steps)):
            step = self._steps[i]
            if step.forever:
                return -1
            total += step.times - (self._used if i == self._index else 0)
        return total


class ScriptedServer:
    """A Messages API on 127.0.0.1 that answers from a script.

    Use as a context manager or call `start()` / `stop()`. `base_url` is what the SDK's
    `base_url` takes. `requests`, `problems` and `accounting` are snapshots (copies).

    Two hooks, for callers that need more than a fixed script:

    - `choose_step(request)` picks the step for each valid request instead of the script's
      order (the script then only gives `min_cache_tokens` and `model`), e.g. a recorded model
      that reacts to the conversation so far. It is called once per valid request, one request
      at a time, under the server's lock (so keep it quick, and do not wait on the server);
      returning None answers "no reply left" like an exhausted script.
    - `on_event_sent(event)` hears of every SSE event right after it was flushed to the client
      (a `SentEvent`), on the thread serving that request, e.g. to time the stream.
    """

    def __init__(
        self,
        script: Script,
        *,
        choose_step: StepChooser | None = None,
        on_event_sent: EventHook | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.script = script
        self._host = host
        self._port = port
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._cursor = _Cursor(script)
        self._choose_step = choose_step
        self._on_event_sent = on_event_sent
        self._cache = PromptCache(min_cache_tokens=script.min_cache_tokens)
        self._requests: list[RecordedRequest] = []
        self._problems: list[str] = []
        self._stopping = threading.Event()
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---

    def start(self) -> ScriptedServer:
        httpd = _HTTPServer((self._host, self._port), _Handler)
        httpd.scripted = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.name = f"scripted-api:{httpd.server_address[1]}"
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def base_url(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the scripted server is not running")
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    # --- what happened ---

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def problems(self) -> list[str]:
        with self._lock:
            return list(self._problems)

    @property
    def accounting(self) -> list[UsageRecord]:
        with self._lock:
            return [
                UsageRecord(r.number, r.usage, r.delivered)
                for r in self._requests
                if r.usage is not None
            ]

    @property
    def remaining_steps(self) -> int:
        """Requests the script can still answer (-1 when the last step is `forever`, or when
        `choose_step` decides)."""
        with self._lock:
            return -1 if self._choose_step is not None else self._cursor.remaining

    def wait_for(self, predicate: Callable[[ScriptedServer], bool], timeout: float = 5.0) -> bool:
        """Block until `predicate(self)` holds (re-checked whenever a request changes)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate(self):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(min(left, 0.05))
            return True

    def wait_stalled(self, timeout: float = 5.0) -> RecordedRequest:
        """Return the request that is stalling now; raise TimeoutError if none does in time."""
        if not self.wait_for(lambda s: any(r.stalled for r in s._requests), timeout):
            raise TimeoutError("no request stalled in time")
        with self._lock:
            return next(r for r in self._requests if r.stalled)

    # --- used by the handler ---

    def _record(self, request: RecordedRequest) -> None:
        with self._changed:
            self._requests.append(request)
            self._changed.notify_all()

    def _update(self, request: RecordedRequest, **changes: Any) -> None:
        with self._changed:
            for key, value in changes.items():
                setattr(request, key, value)
            self._changed.notify_all()

    def _problem(self, request: RecordedRequest, text: str) -> None:
        with self._changed:
            request.problems.append(text)
            self._problems.append(f"request #{request.number}: {text}")
            self._changed.notify_all()

    def _next_number(self) -> int:
        with self._lock:
            return len(self._requests) + 1

    def _take_step(self, request: RecordedRequest) -> tuple[int | None, Step] | None:
        """The step answering `request`, with its index in the script (None if chosen)."""
        with self._lock:
            if self._choose_step is None:
                return self._cursor.take()
            step = self._choose_step(request)
            return None if step is None else (None, step)

    def _no_step_text(self, request: RecordedRequest) -> str:
        if self._choose_step is not None:
            return f"scripted API: the step chooser has no reply for request #{request.number}"
        return (
            f"scripted API: the script has no reply left for request #{request.number} "
            f"(it has {len(self.script.steps)} step(s))"
        )

    def _sending(self, request: RecordedRequest, event: SseEvent) -> Delivered:
        """Record `event` as sent before it is written (the client may react at once); return
        what `delivered` was before, for `_unsent`."""
        with self._changed:
            before = request.delivered
            request.events.append(event.label)
            if event.name == "message_start":
                request.delivered = "partial"
            elif event.name == "message_delta":
                request.delivered = "full"
            self._changed.notify_all()
            return before

    def _unsent(self, request: RecordedRequest, delivered: Delivered) -> None:
        """The event `_sending` recorded never left: take it back."""
        with self._changed:
            request.events.pop()
            request.delivered = delivered
            self._changed.notify_all()

    def _sent(self, request: RecordedRequest, event: SseEvent) -> None:
        if self._on_event_sent is not None:
            sent = SentEvent(request, event.label, event.data, time.monotonic())
            self._on_event_sent(sent)

    def _usage_for(self, body: Mapping[str, Any], step: Step, request_number: int) -> Usage:
        counted = self._cache.account(body)
        computed = {
            "input_tokens": counted.input_tokens,
            "cache_creation_input_tokens": counted.cache_creation_input_tokens,
            "cache_read_input_tokens": counted.cache_read_input_tokens,
            "output_tokens": output_tokens(content_json(step, request_number)),
        }
        computed.update(step.usage)
        return Usage(**computed)

    def _sleep(self, seconds: float) -> bool:
        """Wait; return False if the server is stopping meanwhile."""
        if seconds <= 0:
            return not self._stopping.is_set()
        return not self._stopping.wait(seconds)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    scripted: ScriptedServer


class _ClientGoneError(Exception):
    """The client closed the connection while we were answering."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the default stderr access log."""

    def handle_one_request(self) -> None:
        """Serve one request; a connection we dropped on purpose (or the client did) just ends."""
        try:
            super().handle_one_request()
        except (OSError, ValueError):
            self.close_connection = True

    @property
    def scripted(self) -> ScriptedServer:
        return self.server.scripted

    # --- entry points ---

    def do_GET(self) -> None:
        self._send_json(200, {"status": "ok", "scripted": True})

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        path = self.path.split("?", 1)[0]
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            body: Any = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            body = None
        server = self.scripted
        if len(raw) < length:
            # The client hung up in the middle of sending (e.g. it was cancelled): not a request.
            self.close_connection = True
            return
        record = RecordedRequest(
            number=server._next_number(),
            path=path,
            headers=headers,
            body=body,
            arrived=time.monotonic(),
            stream=bool(body.get("stream")) if isinstance(body, dict) else False,
        )
        server._record(record)
        try:
            self._answer(record)
        except _ClientGoneError:
            server._update(record, client_gone=True)
        except Exception as exc:  # a bug here must fail the test, not vanish into a thread
            server._problem(record, f"scripted server error: {type(exc).__name__}: {exc}")
            raise
        finally:
            server._update(record, done=True, stalled=False)

    # --- answering ---

    def _answer(self, record: RecordedRequest) -> None:
        server = self.scripted
        if record.path != "/v1/messages":
            self._error(record, 404, "not_found_error", f"Not found: {record.path}")
            return
        problems = validate_request(record.body, record.headers)
        if problems:
            for problem in problems:
                server._problem(record, problem)
            self._error(record, 400, "invalid_request_error", problems[0])
            return
        taken = server._take_step(record)
        if taken is None:
            text = server._no_step_text(record)
            server._problem(record, text)
            self._error(record, 400, "invalid_request_error", text)
            return
        index, step = taken
        server._update(record, step_index=index, label=step.label)
        unmet = check_expectations(step.expect, record.body)
        if unmet:
            name = step.label or ("the chosen step" if index is None else f"step {index}")
            for text in unmet:
                server._problem(record, f"{name}: {text}")
            self._error(record, 400, "invalid_request_error", f"scripted API: {name}: {unmet[0]}")
            return
        fault = step.fault
        if fault is not None and fault.kind == "http_error":
            self._http_fault(record, fault)
            return
        usage = server._usage_for(record.body, step, record.number)
        server._update(record, usage=usage)
        model = server.script.model or str(record.body.get("model"))
        if not server._sleep(step.timing.headers_delay):
            return
        if record.stream:
            self._stream(record, step, usage, model)
        else:
            self._whole(record, step, usage, model)

    def _http_fault(self, record: RecordedRequest, fault: Fault) -> None:
        extra = dict(fault.headers)
        if fault.retry_after is not None:
            extra["retry-after"] = f"{fault.retry_after:g}"
        self.scripted._update(record, status=fault.status)
        self._send_json(fault.status, fault.error_body(), extra)

    def _error(self, record: RecordedRequest, status: int, kind: str, message: str) -> None:
        self.scripted._update(record, status=status)
        self._send_json(status, {"type": "error", "error": {"type": kind, "message": message}})

    def _whole(self, record: RecordedRequest, step: Step, usage: Usage, model: str) -> None:
        fault = step.fault
        server = self.scripted
        if fault is not None and fault.kind == "reset":
            self._reset()
            return
        if fault is not None and fault.kind == "stall":
            server._update(record, stalled=True)
            if not server._sleep(fault.seconds):
                return
            server._update(record, stalled=False)
        if fault is not None and fault.kind == "error_event":
            server._update(record, status=fault.http_status())
            self._send_json(fault.http_status(), fault.error_body())
            return
        body = message_json(step, request_number=record.number, model=model, usage=usage)
        server._update(record, status=200, delivered="full")
        try:
            self._send_json(200, body)
        except _ClientGoneError:
            server._update(record, delivered="none")
            raise

    def _stream(self, record: RecordedRequest, step: Step, usage: Usage, model: str) -> None:
        server = self.scripted
        fault = step.fault
        events = plan_events(step, request_number=record.number, model=model, usage=usage)
        cut = len(events) if fault is None else min(fault.after_events, len(events))
        if fault is not None and fault.kind == "stall" and fault.before_headers:
            server._update(record, stalled=True)
            if not server._sleep(fault.seconds):
                return
            server._update(record, stalled=False)
        server._update(record, status=200)
        self._start_sse()
        for position, event in enumerate(events):
            if position == cut and fault is not None and not self._fault_mid_stream(record, fault):
                return
            self._send_event(record, event)
            if not server._sleep(step.timing.event_delay):
                return
        if cut == len(events) and fault is not None and not self._fault_mid_stream(record, fault):
            return
        self._end_chunks()

    def _fault_mid_stream(self, record: RecordedRequest, fault: Fault) -> bool:
        """Apply a mid-stream fault; return True to go on sending the rest of the reply."""
        server = self.scripted
        if fault.kind == "reset":
            self._reset()
            return False
        if fault.kind == "error_event":
            self._send_event(record, error_event(fault.error_body()))
            self._end_chunks()
            return False
        if fault.kind == "stall" and not fault.before_headers:
            server._update(record, stalled=True)
            if not server._sleep(fault.seconds):
                self._reset()
                return False
            server._update(record, stalled=False)
        return True

    # --- low level ---

    def _send_json(
        self, status: int, body: Mapping[str, Any], extra: Mapping[str, str] | None = None
    ) -> None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", "req_scripted")
            for key, value in (extra or {}).items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)
            self.wfile.flush()
        except OSError as exc:
            raise _ClientGoneError from exc

    def _start_sse(self) -> None:
        try:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream; charset=utf-8")
            self.send_header("cache-control", "no-cache")
            self.send_header("transfer-encoding", "chunked")
            self.send_header("request-id", "req_scripted")
            self.end_headers()
            self.wfile.flush()
        except OSError as exc:
            raise _ClientGoneError from exc

    def _send_event(self, record: RecordedRequest, event: SseEvent) -> None:
        """Send one SSE event; the record says it was sent before the client can react to it."""
        server = self.scripted
        delivered_before = server._sending(record, event)
        data = event.encode()
        try:
            self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()
        except OSError as exc:
            server._unsent(record, delivered_before)
            raise _ClientGoneError from exc
        server._sent(record, event)

    def _end_chunks(self) -> None:
        try:
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError as exc:
            raise _ClientGoneError from exc

    def _reset(self) -> None:
        """Drop the TCP connection with a RST, as a broken network does."""
        self.close_connection = True
        sock = self.connection
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        except OSError:
            pass
        # The file objects hold references to the socket: close them so the close is real.
        self.rfile.close()
        self.wfile.close()
        sock.close()
