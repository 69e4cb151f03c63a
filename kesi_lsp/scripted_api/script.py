"""What the scripted server answers: a script is a list of steps, one per incoming request.

A script is plain data (the JSON format is documented in the package docstring) so the demo,
the benchmarks and other processes can write it to a file; the Python helpers at the bottom
build the same data for tests. Parsing checks the script itself and says exactly what is wrong
with it, because a typo in a script must fail loudly rather than produce a confusing reply.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
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

EXPECTATION_KEYS: Final = frozenset(
    {
        "last_user_text_contains",
        "last_tool_result_contains",
        "last_tool_result_is_error",
        "system_contains",
        "message_count",
        "tools_include",
        "stream",
    }
)


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


@dataclass(frozen=True)
class Script:
    """Steps in order, plus server-wide options.

    `min_cache_tokens`: prompt prefixes shorter than this are never written to the cache (the
    real Haiku 4.5 minimum is 4096; tests default to 0 so small prompts cache). `model`: the
    model name the replies report (default: echo the request's).
    """

    steps: tuple[Step, ...] = ()
    min_cache_tokens: int = 0
    model: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"steps": [step.to_json() for step in self.steps]}
        if self.min_cache_tokens:
            out["min_cache_tokens"] = self.min_cache_tokens
        if self.model is not None:
            out["model"] = self.model
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, indent=2)

    @classmethod
    def from_json(cls, data: object) -> Script:
        """Parse the JSON form; raise ScriptError naming the first thing that is wrong."""
        return _parse_script(data)

    @classmethod
    def load(cls, path: Path) -> Script:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ScriptError(f"cannot read script {path}: {exc}") from exc
        return cls.from_json(data)


# --- parsing -------------------------------------------------------------------------------


def _fail(where: str, problem: str) -> ScriptError:
    return ScriptError(f"script {where}: {problem}")


def _obj(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(where, f"must be an object, got {type(value).__name__}")
    return value


def _known(data: Mapping[str, Any], allowed: set[str] | frozenset[str], where: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise _fail(where, f"unknown field(s) {unknown}; allowed: {sorted(allowed)}")


def _num(value: object, where: str, *, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < minimum:
        raise _fail(where, f"must be a number >= {minimum}")
    return float(value)


def _int(value: object, where: str, *, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _fail(where, f"must be an integer >= {minimum}")
    return value


def _str(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise _fail(where, "must be a string")
    return value


def _parse_script(data: object) -> Script:
    if isinstance(data, list):
        data = {"steps": data}
    root = _obj(data, "root")
    _known(root, {"steps", "min_cache_tokens", "model"}, "root")
    steps_raw = root.get("steps", [])
    if not isinstance(steps_raw, list):
        raise _fail("steps", "must be a list")
    steps = tuple(_parse_step(raw, f"steps[{i}]") for i, raw in enumerate(steps_raw))
    for i, step in enumerate(steps[:-1]):
        if step.forever:
            raise _fail(f"steps[{i}]", "only the last step may be `forever`")
    model = root.get("model")
    return Script(
        steps=steps,
        min_cache_tokens=_int(root.get("min_cache_tokens", 0), "min_cache_tokens"),
        model=None if model is None else _str(model, "model"),
    )


_STEP_KEYS: Final = frozenset(
    {"content", "stop_reason", "usage", "timing", "fault", "expect", "times", "forever", "label"}
)
_USAGE_KEYS: Final = frozenset(
    {"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"}
)


def _parse_step(raw: object, where: str) -> Step:
    data = _obj(raw, where)
    _known(data, _STEP_KEYS, where)
    content_raw = data.get("content", [])
    if not isinstance(content_raw, list):
        raise _fail(f"{where}.content", "must be a list of blocks")
    content = tuple(_parse_block(b, f"{where}.content[{i}]") for i, b in enumerate(content_raw))
    stop_reason = data.get("stop_reason")
    if stop_reason is not None and stop_reason not in STOP_REASONS:
        raise _fail(f"{where}.stop_reason", f"must be one of {sorted(STOP_REASONS)}")
    usage = _obj(data.get("usage", {}), f"{where}.usage")
    _known(usage, _USAGE_KEYS, f"{where}.usage")
    usage_ints = {k: _int(v, f"{where}.usage.{k}") for k, v in usage.items()}
    expect = _obj(data.get("expect", {}), f"{where}.expect")
    _known(expect, EXPECTATION_KEYS, f"{where}.expect")
    fault_raw = data.get("fault")
    fault = None if fault_raw is None else _parse_fault(fault_raw, f"{where}.fault")
    if not content and fault is None:
        raise _fail(where, "needs `content` (what the model says) or a `fault`")
    label = data.get("label")
    return Step(
        content=content,
        stop_reason=stop_reason,
        usage=usage_ints,
        timing=_parse_timing(data.get("timing", {}), f"{where}.timing"),
        fault=fault,
        expect=dict(expect),
        times=_int(data.get("times", 1), f"{where}.times", minimum=1),
        forever=bool(data.get("forever", False)),
        label=None if label is None else _str(label, f"{where}.label"),
    )


def _parse_block(raw: object, where: str) -> Block:
    data = _obj(raw, where)
    kind = data.get("type")
    if kind == "text":
        _known(data, {"type", "text"}, where)
        return TextBlock(text=_str(data.get("text"), f"{where}.text"))
    if kind == "tool_use":
        _known(data, {"type", "name", "input", "id", "raw_json"}, where)
        block_id = data.get("id")
        raw_json = data.get("raw_json")
        return ToolUseBlock(
            name=_str(data.get("name"), f"{where}.name"),
            input=dict(_obj(data.get("input", {}), f"{where}.input")),
            id=None if block_id is None else _str(block_id, f"{where}.id"),
            raw_json=None if raw_json is None else _str(raw_json, f"{where}.raw_json"),
        )
    raise _fail(f"{where}.type", "must be 'text' or 'tool_use'")


def _parse_timing(raw: object, where: str) -> Timing:
    data = _obj(raw, where)
    _known(data, {"headers_delay", "event_delay", "text_chunk", "json_chunk"}, where)
    base = Timing()
    return Timing(
        headers_delay=_num(data.get("headers_delay", base.headers_delay), f"{where}.headers_delay"),
        event_delay=_num(data.get("event_delay", base.event_delay), f"{where}.event_delay"),
        text_chunk=_int(data.get("text_chunk", base.text_chunk), f"{where}.text_chunk", minimum=1),
        json_chunk=_int(data.get("json_chunk", base.json_chunk), f"{where}.json_chunk", minimum=1),
    )


def _parse_fault(raw: object, where: str) -> Fault:
    data = _obj(raw, where)
    kind = data.get("kind")
    if kind not in FAULT_KINDS:
        raise _fail(f"{where}.kind", f"must be one of {list(FAULT_KINDS)}")
    allowed = {
        "http_error": {"kind", "status", "error_type", "message", "retry_after", "headers"},
        "reset": {"kind", "after_events"},
        "stall": {"kind", "after_events", "seconds", "before_headers"},
        "error_event": {"kind", "after_events", "error_type", "message"},
    }[kind]
    _known(data, allowed, where)
    headers = _obj(data.get("headers", {}), f"{where}.headers")
    retry_after = data.get("retry_after")
    error_type = data.get("error_type")
    message = data.get("message")
    status = _int(data.get("status", 500), f"{where}.status", minimum=400)
    if status > 599:
        raise _fail(f"{where}.status", "must be an HTTP error status (400-599)")
    return Fault(
        kind=kind,
        status=status,
        error_type=None if error_type is None else _str(error_type, f"{where}.error_type"),
        message=None if message is None else _str(message, f"{where}.message"),
        retry_after=None if retry_after is None else _num(retry_after, f"{where}.retry_after"),
        headers={str(k): _str(v, f"{where}.headers.{k}") for k, v in headers.items()},
        after_events=_int(data.get("after_events", 0), f"{where}.after_events"),
        seconds=_num(data.get("seconds", 30.0), f"{where}.seconds"),
        before_headers=bool(data.get("before_headers", False)),
    )


# --- helpers for Python callers ------------------------------------------------------------


def text(value: str) -> TextBlock:
    """A text block."""
    return TextBlock(value)


def tool_use(name: str, tool_input: Mapping[str, Any] | None = None, **kw: Any) -> ToolUseBlock:
    """A tool_use block: `tool_use("read_file", {"file_path": "a.py"})`."""
    return ToolUseBlock(name=name, input=dict(tool_input or {}), **kw)


def reply(*content: Block | str, **kw: Any) -> Step:
    """A model reply; plain strings become text blocks: `reply("Let me look.", tool_use(...))`.

    Keyword arguments are Step fields; `timing` may be a Timing or its JSON dict.
    """
    blocks = tuple(TextBlock(c) if isinstance(c, str) else c for c in content)
    return Step(content=blocks, **_normalized(kw))


def _normalized(kw: dict[str, Any]) -> dict[str, Any]:
    timing = kw.get("timing")
    if isinstance(timing, Mapping):
        kw = {**kw, "timing": _parse_timing(timing, "timing")}
    return kw


def http_error(
    status: int,
    *,
    retry_after: float | None = None,
    headers: Mapping[str, str] | None = None,
    message: str | None = None,
    error_type: str | None = None,
    **kw: Any,
) -> Step:
    """A step that answers with an HTTP error (429 with `retry_after`, 529, 500, 400, ...)."""
    fault = Fault(
        kind="http_error",
        status=status,
        retry_after=retry_after,
        headers=dict(headers or {}),
        message=message,
        error_type=error_type,
    )
    return Step(fault=fault, **_normalized(kw))


def reset_after(events: int, *content: Block | str, **kw: Any) -> Step:
    """Stream `content`, but reset the TCP connection after `events` SSE events."""
    return reply(*content, fault=Fault(kind="reset", after_events=events), **kw)


def stall_after(
    events: int,
    *content: Block | str,
    seconds: float = 30.0,
    before_headers: bool = False,
    **kw: Any,
) -> Step:
    """Stream `content`, but go silent for `seconds` after `events` SSE events."""
    fault = Fault(kind="stall", after_events=events, seconds=seconds, before_headers=before_headers)
    return reply(*content, fault=fault, **kw)


def error_event_after(
    events: int,
    *content: Block | str,
    error_type: str = "overloaded_error",
    message: str | None = None,
    **kw: Any,
) -> Step:
    """Stream `content`, but send an `error` event after `events` SSE events and end there."""
    fault = Fault(kind="error_event", after_events=events, error_type=error_type, message=message)
    return reply(*content, fault=fault, **kw)


def script(*steps: Step, min_cache_tokens: int = 0, model: str | None = None) -> Script:
    """A Script from steps, in order."""
    return Script(steps=tuple(steps), min_cache_tokens=min_cache_tokens, model=model)


def as_script(value: Script | Sequence[Step] | Mapping[str, Any]) -> Script:
    """Accept a Script, a list of Steps, or the JSON form."""
    if isinstance(value, Script):
        return value
    if isinstance(value, Mapping):
        return Script.from_json(value)
    return Script(steps=tuple(value))
