"""What the scripted server answers: a script is a list of steps, one per incoming request.

A script is plain data (the JSON format is documented in the package docstring) so the demo,
the benchmarks and other processes can write it to a file; `builders.py` builds the same data
for tests, and `parse.py` reads it back (`parse_script`, `load_script`), saying exactly what is
wrong with a broken script. This module only describes the data, so it imports neither.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

FaultKind = Literal["http_error", "reset", "stall", "error_event"]
FAULT_KINDS: Final[tuple[FaultKind, ...]] = ("http_error", "reset", "stall", "error_event")

STOP_REASONS: Final = frozenset(
    {
        "end_turn",
        "tool_use",
        "max_tokens",
        "stop_sequence",
        "pause_turn",
        "refusal",
        "model_context_window_exceeded",
    }
)

# The error type the real API uses for each status, and its usual message.
ERROR_TYPES: Final[Mapping[int, tuple[str, str]]] = {
    400: ("invalid_request_error", "Invalid request."),
    401: ("authentication_error", "invalid x-api-key"),
    403: ("permission_error", "Your API key does not have permission to use this resource."),
    404: ("not_found_error", "Not found."),
    408: ("timeout_error", "Request timed out."),
    413: ("request_too_large", "Request exceeds the maximum allowed number of bytes."),
    429: ("rate_limit_error", "Number of requests has exceeded your rate limit."),
    500: ("api_error", "Internal server error."),
    503: ("api_error", "Service unavailable."),
    504: ("timeout_error", "Gateway timeout."),
    529: ("overloaded_error", "Overloaded"),
}
# For an `error_event` fault answered to a non-streaming request: the HTTP status to use.
STATUS_FOR_ERROR_TYPE: Final[Mapping[str, int]] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}


class ScriptError(ValueError):
    """The script itself is malformed (not the request): a mistake by whoever wrote it."""


@dataclass(frozen=True)
class TextBlock:
    """A text block of the reply, streamed as `text_delta` chunks."""

    text: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "text", "text": self.text}


@dataclass(frozen=True)
class ToolUseBlock:
    """A tool_use block of the reply, its input streamed as cut-up `input_json_delta` chunks.

    `id` defaults to a deterministic `toolu_scripted_<request>_<index>`. `raw_json`, when
    given, is streamed verbatim instead of `input` serialised (e.g. JSON cut off by max_tokens).
    """

    name: str
    input: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None
    raw_json: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "tool_use", "name": self.name, "input": dict(self.input)}
        if self.id is not None:
            out["id"] = self.id
        if self.raw_json is not None:
            out["raw_json"] = self.raw_json
        return out


Block = TextBlock | ToolUseBlock


@dataclass(frozen=True)
class Timing:
    """Pacing of a reply: waits (seconds) and how finely text and tool input are cut."""

    headers_delay: float = 0.0
    event_delay: float = 0.0
    text_chunk: int = 6
    json_chunk: int = 7

    def to_json(self) -> dict[str, Any]:
        return {
            "headers_delay": self.headers_delay,
            "event_delay": self.event_delay,
            "text_chunk": self.text_chunk,
            "json_chunk": self.json_chunk,
        }


@dataclass(frozen=True)
class Fault:
    """Something going wrong on purpose (see the package docstring for each kind)."""

    kind: FaultKind
    status: int = 500
    error_type: str | None = None
    message: str | None = None
    retry_after: float | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    after_events: int = 0
    seconds: float = 30.0
    before_headers: bool = False

    def error_body(self) -> dict[str, Any]:
        """The `{"type": "error", ...}` body this fault reports (http_error, error_event)."""
        status = self.status
        if self.kind == "error_event" and self.error_type is not None:
            status = STATUS_FOR_ERROR_TYPE.get(self.error_type, 500)
        default_type, default_message = ERROR_TYPES.get(status, ("api_error", "Error."))
        if self.kind == "error_event" and self.error_type is None:
            default_type, default_message = ERROR_TYPES[529]
        return {
            "type": "error",
            "error": {
                "type": self.error_type or default_type,
                "message": self.message or default_message,
            },
        }

    def http_status(self) -> int:
        """The HTTP status for this fault when it is answered as a plain error response."""
        if self.kind == "error_event":
            return STATUS_FOR_ERROR_TYPE.get(self.error_body()["error"]["type"], 500)
        return self.status

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.kind == "http_error":
            out["status"] = self.status
            if self.retry_after is not None:
                out["retry_after"] = self.retry_after
            if self.headers:
                out["headers"] = dict(self.headers)
        if self.kind in ("http_error", "error_event"):
            if self.error_type is not None:
                out["error_type"] = self.error_type
            if self.message is not None:
                out["message"] = self.message
        if self.kind in ("reset", "stall", "error_event"):
            out["after_events"] = self.after_events
        if self.kind == "stall":
            out["seconds"] = self.seconds
            out["before_headers"] = self.before_headers
        return out


@dataclass(frozen=True)
class Step:
    """The answer to one request (or `times` consecutive requests, or every remaining one)."""

    content: tuple[Block, ...] = ()
    stop_reason: str | None = None
    usage: Mapping[str, int] = field(default_factory=dict)
    timing: Timing = field(default_factory=Timing)
    fault: Fault | None = None
    expect: Mapping[str, Any] = field(default_factory=dict)
    times: int = 1
    forever: bool = False
    label: str | None = None

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason is not None:
            return self.stop_reason
        if any(isinstance(block, ToolUseBlock) for block in self.content):
            return "tool_use"
        return "end_turn"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"content": [block.to_json() for block in self.content]}
        if self.stop_reason is not None:
            out["stop_reason"] = self.stop_reason
        if self.usage:
            out["usage"] = dict(self.usage)
        if self.timing != Timing():
            out["timing"] = self.timing.to_json()
        if self.fault is not None:
            out["fault"] = self.fault.to_json()
        if self.expect:
            out["expect"] = dict(self.expect)
        if self.times != 1:
            out["times"] = self.times
        if self.forever:
            out["forever"] = True
        if self.label is not None:
            out["label"] = self.label
        return out


ModelsAnswer = Literal["window", "no_window", "missing"]
MODELS_ANSWERS: Final[tuple[ModelsAnswer, ...]] = ("window", "no_window", "missing")


@dataclass(frozen=True)
class Script:
    """Steps in order, plus server-wide options.

    `min_cache_tokens`: prompt prefixes shorter than this are never written to the cache (the
    real Haiku 4.5 minimum is 4096; tests default to 0 so small prompts cache). `model`: the
    model name the replies report (default: echo the request's). `context_window`: a request
    whose input (as `tokens.py` counts it) is larger gets the real API's 400 "prompt is too
    long: N tokens > M maximum", without using a step (None: no limit). `models`: what
    `GET /v1/models/{id}` answers: "window" the model with its `max_input_tokens` (the
    `context_window`, else the real 200,000), "no_window" the model without it, "missing" a 404
    (an API without the endpoint).
    """

    steps: tuple[Step, ...] = ()
    min_cache_tokens: int = 0
    model: str | None = None
    context_window: int | None = None
    models: ModelsAnswer = "window"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"steps": [step.to_json() for step in self.steps]}
        if self.min_cache_tokens:
            out["min_cache_tokens"] = self.min_cache_tokens
        if self.model is not None:
            out["model"] = self.model
        if self.context_window is not None:
            out["context_window"] = self.context_window
        if self.models != "window":
            out["models"] = self.models
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2)
