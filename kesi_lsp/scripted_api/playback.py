"""Playing a script back: what every request handler of one scripted server shares.

`ScriptedServer` owns the HTTP server's lifecycle; the handlers (`handler.py`) answer each
request from this object: which step answers next (the script's order, or `choose_step`), the
prompt cache's accounting, the journal of what happened, and the flag that stops every wait
when the server shuts down. Keeping it apart from `ScriptedServer` is what lets the handler
use it without reaching into the server's private members.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Mapping
from typing import Any

from kesi_lsp.scripted_api.cache import PromptCache
from kesi_lsp.scripted_api.records import (
    EventHook,
    Journal,
    RecordedRequest,
    SentEvent,
    StepChooser,
)
from kesi_lsp.scripted_api.script import Script, Step
from kesi_lsp.scripted_api.tokens import output_tokens
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


class Playback:
    """The script being played, and what the handlers record while they answer from it."""

    def __init__(
        self,
        script: Script,
        *,
        choose_step: StepChooser | None = None,
        on_event_sent: EventHook | None = None,
    ) -> None:
        self.script = script
        self.journal = Journal()
        self._choosing = threading.Lock()
        self._cursor = _Cursor(script)
        self._choose_step = choose_step
        self._on_event_sent = on_event_sent
        self._cache = PromptCache(min_cache_tokens=script.min_cache_tokens)
        self._stopping = threading.Event()
        self.model_lookups: list[str] = []  # the model of each GET /v1/models/{id}, in order

    @property
    def remaining_steps(self) -> int:
        """Requests the script can still answer (-1 when the last step is `forever`, or when
        `choose_step` decides)."""
        with self._choosing:
            return -1 if self._choose_step is not None else self._cursor.remaining

    def take_step(self, request: RecordedRequest) -> tuple[int | None, Step] | None:
        """The step answering `request`, with its index in the script (None if chosen)."""
        with self._choosing:
            if self._choose_step is None:
                return self._cursor.take()
            step = self._choose_step(request)
            return None if step is None else (None, step)

    def no_step_text(self, request: RecordedRequest) -> str:
        if self._choose_step is not None:
            return f"scripted API: the step chooser has no reply for request #{request.number}"
        return (
            f"scripted API: the script has no reply left for request #{request.number} "
            f"(it has {len(self.script.steps)} step(s))"
        )

    def event_sent(self, request: RecordedRequest, event: SseEvent) -> None:
        if self._on_event_sent is not None:
            sent = SentEvent(request, event.label, event.data, time.monotonic())
            self._on_event_sent(sent)

    def usage_for(self, body: Mapping[str, Any], step: Step, request_number: int) -> Usage:
        counted = self._cache.account(body)
        computed = {
            "input_tokens": counted.input_tokens,
            "cache_creation_input_tokens": counted.cache_creation_input_tokens,
            "cache_read_input_tokens": counted.cache_read_input_tokens,
            "output_tokens": output_tokens(content_json(step, request_number)),
        }
        computed.update(step.usage)
        return Usage(**computed)

    def stop(self) -> None:
        """Wake every wait: the server is shutting down."""
        self._stopping.set()

    def sleep(self, seconds: float) -> bool:
        """Wait; return False if the server is stopping meanwhile."""
        if seconds <= 0:
            return not self._stopping.is_set()
        return not self._stopping.wait(seconds)
