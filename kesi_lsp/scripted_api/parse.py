"""Reading a script from its JSON form, with exact complaints.

A typo in a script must fail loudly rather than produce a confusing reply, so every check
names the place (`steps[2].fault.kind`) and what it allows.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from kesi_lsp.scripted_api.expect import EXPECTATION_KEYS
from kesi_lsp.scripted_api.script import (
    FAULT_KINDS,
    MODELS_ANSWERS,
    STOP_REASONS,
    Block,
    Fault,
    ModelsAnswer,
    Script,
    ScriptError,
    Step,
    TextBlock,
    Timing,
    ToolUseBlock,
)


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


def load_script(path: Path) -> Script:
    """Read a script file; raise ScriptError for an unreadable file or a broken script."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise ScriptError(f"cannot read script {path}: {exc}") from exc
    return parse_script(data)


def parse_script(data: object) -> Script:
    """The Script `data` (the JSON form; a bare list is its steps) describes; raise ScriptError
    naming the first thing that is wrong."""
    if isinstance(data, list):
        data = {"steps": data}
    root = _obj(data, "root")
    _known(root, {"steps", "min_cache_tokens", "model", "context_window", "models"}, "root")
    steps_raw = root.get("steps", [])
    if not isinstance(steps_raw, list):
        raise _fail("steps", "must be a list")
    steps = tuple(_parse_step(raw, f"steps[{i}]") for i, raw in enumerate(steps_raw))
    for i, step in enumerate(steps[:-1]):
        if step.forever:
            raise _fail(f"steps[{i}]", "only the last step may be `forever`")
    model = root.get("model")
    window = root.get("context_window")
    return Script(
        steps=steps,
        min_cache_tokens=_int(root.get("min_cache_tokens", 0), "min_cache_tokens"),
        model=None if model is None else _str(model, "model"),
        context_window=None if window is None else _int(window, "context_window", minimum=1),
        models=_models(root.get("models", "window")),
    )


def _models(value: object) -> ModelsAnswer:
    if value not in MODELS_ANSWERS:
        raise _fail("models", f"must be one of {', '.join(MODELS_ANSWERS)}")
    return value


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
        timing=parse_timing(data.get("timing", {}), f"{where}.timing"),
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


def parse_timing(raw: object, where: str) -> Timing:
    """A step's `timing` (defaults for what it leaves out); `where` names it in complaints."""
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
