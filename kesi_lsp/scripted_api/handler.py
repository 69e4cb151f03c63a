"""How the scripted server answers one HTTP request.

`GET /v1/models/{id}` answers the model's context window as the script's `models` says.
`POST /v1/messages` is validated (`validate.py`), recorded (`records.py`), matched to a step
(the script's next, or the server's `choose_step`), checked against the step's expectations,
and answered in the real wire format (`wire.py`) with the step's fault injected. An invalid
request, a failed expectation or a missing step gets a clear 400 and a recorded problem.
"""

from __future__ import annotations

import json
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import unquote

from kesi_lsp.scripted_api.expect import check_expectations
from kesi_lsp.scripted_api.playback import Playback
from kesi_lsp.scripted_api.records import Journal, RecordedRequest
from kesi_lsp.scripted_api.script import Fault, Step
from kesi_lsp.scripted_api.tokens import input_size
from kesi_lsp.scripted_api.transport import ClientGoneError, Transport
from kesi_lsp.scripted_api.validate import validate_request
from kesi_lsp.scripted_api.wire import (
    SseEvent,
    Usage,
    error_event,
    message_json,
    model_info,
    plan_events,
)

MODELS_PATH = "/v1/models/"


class HTTPServer(ThreadingHTTPServer):
    """One thread per connection; `playback` is the script it answers from."""

    daemon_threads = True
    block_on_close = False
    allow_reuse_address = True
    playback: Playback


class Handler(Transport):
    """Answers each request from the script (see the module docstring)."""

    server: HTTPServer

    @property
    def playback(self) -> Playback:
        return self.server.playback

    @property
    def journal(self) -> Journal:
        return self.playback.journal

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        path = self.path.split("?", 1)[0]
        if path.startswith(MODELS_PATH):
            self._model(unquote(path.removeprefix(MODELS_PATH)))
            return
        self._send_json(200, {"status": "ok", "scripted": True})

    def _model(self, model: str) -> None:
        """`GET /v1/models/{id}`, as the script's `models` says (recorded, never a step)."""
        script = self.playback.script
        self.playback.model_lookups.append(model)
        if script.models == "missing" or not model:
            message = f"Not found: {self.path}"
            self._send_json(
                404, {"type": "error", "error": {"type": "not_found_error", "message": message}}
            )
            return
        self._send_json(200, model_info(model, script))

    def do_POST(self) -> None:  # noqa: N802 (the name http.server calls)
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        if len(raw) < length:
            # The client hung up in the middle of sending (e.g. it was cancelled): not a request.
            self.close_connection = True
            return
        try:
            body: Any = json.loads(raw.decode("utf-8")) if raw else None
        except (UnicodeDecodeError, json.JSONDecodeError):
            body = None
        headers = {k.lower(): v for k, v in self.headers.items()}
        peer = ":".join(str(part) for part in self.client_address[:2])
        record = self.journal.open(self.path.split("?", 1)[0], headers, body, peer)
        try:
            self._answer(record)
        except ClientGoneError:
            self.journal.update(record, client_gone=True)
        except Exception as exc:  # a bug here must fail the test, not vanish into a thread
            self.journal.problem(record, f"scripted server error: {type(exc).__name__}: {exc}")
            raise
        finally:
            self.journal.update(record, done=True, stalled=False)

    # --- choosing the answer ---

    def _answer(self, record: RecordedRequest) -> None:
        if record.path != "/v1/messages":
            self._error(record, 404, "not_found_error", f"Not found: {record.path}")
            return
        step = self._step_for(record)
        if step is None:
            return
        if step.fault is not None and step.fault.kind == "http_error":
            self._http_fault(record, step.fault)
            return
        playback = self.playback
        usage = playback.usage_for(record.body, step, record.number)
        self.journal.update(record, usage=usage)
        model = playback.script.model or str(record.body.get("model"))
        if not playback.sleep(step.timing.headers_delay):
            return
        if record.stream:
            self._stream(record, step, usage, model)
        else:
            self._whole(record, step, usage, model)

    def _step_for(self, record: RecordedRequest) -> Step | None:
        """The step answering a valid request; else answer the 400 here and return None."""
        problems = validate_request(record.body, record.headers)
        if problems:
            self._refuse(record, problems, problems[0])
            return None
        window = self.playback.script.context_window
        if window is not None and (size := input_size(record.body)) > window:
            # What the real API answers; the client did nothing wrong, so it is no problem.
            message = f"prompt is too long: {size} tokens > {window} maximum"
            self._error(record, 400, "invalid_request_error", message)
            return None
        taken = self.playback.take_step(record)
        if taken is None:
            text = self.playback.no_step_text(record)
            self._refuse(record, [text], text)
            return None
        index, step = taken
        self.journal.update(record, step_index=index, label=step.label)
        unmet = check_expectations(step.expect, record.body)
        if unmet:
            name = step.label or ("the chosen step" if index is None else f"step {index}")
            problems = [f"{name}: {text}" for text in unmet]
            self._refuse(record, problems, f"scripted API: {problems[0]}")
            return None
        return step

    def _refuse(self, record: RecordedRequest, problems: list[str], message: str) -> None:
        for problem in problems:
            self.journal.problem(record, problem)
        self._error(record, 400, "invalid_request_error", message)

    def _http_fault(self, record: RecordedRequest, fault: Fault) -> None:
        extra = dict(fault.headers)
        if fault.retry_after is not None:
            extra["retry-after"] = f"{fault.retry_after:g}"
        self.journal.update(record, status=fault.status)
        self._send_json(fault.status, fault.error_body(), extra)

    def _error(self, record: RecordedRequest, status: int, kind: str, message: str) -> None:
        self.journal.update(record, status=status)
        self._send_json(status, {"type": "error", "error": {"type": kind, "message": message}})

    def _stall(self, record: RecordedRequest, seconds: float) -> bool:
        """Go silent for `seconds` (the record says so); False if the server stops meanwhile."""
        self.journal.update(record, stalled=True)
        if not self.playback.sleep(seconds):
            return False
        self.journal.update(record, stalled=False)
        return True

    # --- a whole message ---

    def _whole(self, record: RecordedRequest, step: Step, usage: Usage, model: str) -> None:
        fault = step.fault
        if fault is not None and fault.kind == "reset":
            self._reset()
            return
        if fault is not None and fault.kind == "stall" and not self._stall(record, fault.seconds):
            return
        if fault is not None and fault.kind == "error_event":
            self.journal.update(record, status=fault.http_status())
            self._send_json(fault.http_status(), fault.error_body())
            return
        body = message_json(step, request_number=record.number, model=model, usage=usage)
        self.journal.update(record, status=200, delivered="full")
        try:
            self._send_json(200, body)
        except ClientGoneError:
            self.journal.update(record, delivered="none")
            raise

    # --- a stream of events ---

    def _stream(self, record: RecordedRequest, step: Step, usage: Usage, model: str) -> None:
        fault = step.fault
        events = plan_events(step, request_number=record.number, model=model, usage=usage)
        cut = len(events) if fault is None else min(fault.after_events, len(events))
        if not self._stall_before_headers(record, fault):
            return
        self.journal.update(record, status=200)
        self._start_sse()
        for position, event in enumerate(events):
            if position == cut and fault is not None and not self._fault_mid_stream(record, fault):
                return
            self._send_event(record, event)
            if not self.playback.sleep(step.timing.event_delay):
                return
        if cut == len(events) and fault is not None and not self._fault_mid_stream(record, fault):
            return
        self._end_chunks()

    def _stall_before_headers(self, record: RecordedRequest, fault: Fault | None) -> bool:
        """A `stall` fault `before_headers` waits here; False if the server stops meanwhile."""
        if fault is None or fault.kind != "stall" or not fault.before_headers:
            return True
        return self._stall(record, fault.seconds)

    def _fault_mid_stream(self, record: RecordedRequest, fault: Fault) -> bool:
        """Apply a mid-stream fault; return True to go on sending the rest of the reply."""
        if fault.kind == "reset":
            self._reset()
            return False
        if fault.kind == "error_event":
            self._send_event(record, error_event(fault.error_body()))
            self._end_chunks()
            return False
        stalls_here = fault.kind == "stall" and not fault.before_headers
        if stalls_here and not self._stall(record, fault.seconds):
            self._reset()
            return False
        return True

    def _send_event(self, record: RecordedRequest, event: SseEvent) -> None:
        """Send one SSE event; the record says it was sent before the client can react to it."""
        delivered_before = self.journal.sending(record, event)
        try:
            self._send_chunk(event.encode())
        except ClientGoneError:
            self.journal.unsent(record, delivered_before)
            raise
        self.playback.event_sent(record, event)
