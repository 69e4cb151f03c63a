"""The scripted Messages API server: stdlib HTTP on 127.0.0.1, one background thread.

`ScriptedServer` owns the server's lifecycle and shows what happened (`records.py`); the
script's `Playback` (`playback.py`: which step answers next, the prompt cache, the journal)
is what `handler.py` answers each request from. An invalid request, a failed expectation or
an exhausted script is answered with a clear 400 and recorded in `problems`, which the pytest
fixture turns into a test failure.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from kesi_lsp.scripted_api.handler import Handler, HTTPServer
from kesi_lsp.scripted_api.playback import Playback
from kesi_lsp.scripted_api.records import EventHook, RecordedRequest, StepChooser, UsageRecord
from kesi_lsp.scripted_api.script import Script


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
        self._playback = Playback(script, choose_step=choose_step, on_event_sent=on_event_sent)
        self._journal = self._playback.journal
        self._httpd: HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # --- lifecycle ---

    def start(self) -> ScriptedServer:
        httpd = HTTPServer((self._host, self._port), Handler)
        httpd.playback = self._playback
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.name = f"scripted-api:{httpd.server_address[1]}"
        self._thread.start()
        return self

    def stop(self) -> None:
        self._playback.stop()
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
    def model_lookups(self) -> list[str]:
        """The model each `GET /v1/models/{id}` asked about, in order (a copy)."""
        return list(self._playback.model_lookups)

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
        return self._playback.remaining_steps

    def wait_for(self, predicate: Callable[[ScriptedServer], bool], timeout: float = 5.0) -> bool:
        """Block until `predicate(self)` holds (re-checked whenever a request changes)."""
        return self._journal.wait_until(lambda: predicate(self), timeout)

    def wait_stalled(self, timeout: float = 5.0) -> RecordedRequest:
        """Return the request that is stalling now; raise TimeoutError if none does in time."""
        if not self.wait_for(lambda s: any(r.stalled for r in s.requests), timeout):
            raise TimeoutError("no request stalled in time")
        return next(r for r in self.requests if r.stalled)
