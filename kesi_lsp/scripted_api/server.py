"""The scripted Messages API server: stdlib HTTP on 127.0.0.1, one background thread.

`ScriptedServer` owns the script (which step answers next), the prompt cache, the record of
what happened (`records.py`) and the server's lifecycle; `handler.py` answers each request.
An invalid request, a failed expectation or an exhausted script is answered with a clear 400
and recorded in `problems`, which the pytest fixture turns into a test failure.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping
from typing import Any

from kesi_lsp.scripted_api.handler import Handler, HTTPServer
from kesi_lsp.scripted_api.records import (
    EventHook,
    Journal,
    RecordedRequest,
    SentEvent,
    StepChooser,
    UsageRecord,
)
from kesi_lsp.scripted_api.script import Script, Step
from kesi_lsp.scripted_api.tokens import PromptCache, output_tokens
from kesi_lsp.scripted_api.wire import SseEvent, Usage, content_json


class _Cursor:
    """Which step of the script answers the next request (honouring `times` and `forever`)."""

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
      at a time (so keep it quick); returning None answers "no reply left" like an exhausted
      script.
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
        self._choosing = threading.Lock()
        self._cursor = _Cursor(script)
        self._choose_step = choose_step
        self._on_event_sent = on_event_sent
        self._cache = PromptCache(min_cache_tokens=script.min_cache_tokens)
        self._journal = Journal()
        self._stopping = threading.Event()
        self._httpd: HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---

    def start(self) -> ScriptedServer:
        httpd = HTTPServer((self._host, self._port), Handler)
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
        return self._journal.requests

    @property
    def problems(self) -> list[str]:
        return self._journal.problems

    @property
    def accounting(self) -> list[UsageRecord]:
        return [
            UsageRecord(r.number, r.usage, r.delivered)
            for r in self._journal.requests
            if r.usage is not None
        ]

    @property
    def remaining_steps(self) -> int:
        """Requests the script can still answer (-1 when the last step is `forever`, or when
        `choose_step` decides)."""
        with self._choosing:
            return -1 if self._choose_step is not None else self._cursor.remaining

    def wait_for(self, predicate: Callable[[ScriptedServer], bool], timeout: float = 5.0) -> bool:
        """Block until `predicate(self)` holds (re-checked whenever a request changes)."""
        return self._journal.wait_until(lambda: predicate(self), timeout)

    def wait_stalled(self, timeout: float = 5.0) -> RecordedRequest:
        """Return the request that is stalling now; raise TimeoutError if none does in time."""
        if not self.wait_for(lambda s: any(r.stalled for r in s.requests), timeout):
            raise TimeoutError("no request stalled in time")
        return next(r for r in self.requests if r.stalled)

    # --- package-private: what the handler asks of the server ---

    def _take_step(self, request: RecordedRequest) -> tuple[int | None, Step] | None:
        """The step answering `request`, with its index in the script (None if chosen)."""
        with self._choosing:
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

    def _event_sent(self, request: RecordedRequest, event: SseEvent) -> None:
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
