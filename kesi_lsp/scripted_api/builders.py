"""Python helpers that build scripts: `script(reply("Let me look.", tool_use(...)), ...)`.

They make the same data as the JSON form (see the package docstring), so a test reads like the
conversation it plays.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kesi_lsp.scripted_api.parse import parse_script, parse_timing
from kesi_lsp.scripted_api.script import (
    Block,
    Fault,
    ModelsAnswer,
    Script,
    Step,
    TextBlock,
    ToolUseBlock,
)


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
        kw = {**kw, "timing": parse_timing(timing, "timing")}
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


def script(
    *steps: Step,
    min_cache_tokens: int = 0,
    model: str | None = None,
    context_window: int | None = None,
    models: ModelsAnswer = "window",
) -> Script:
    """A Script from steps, in order."""
    return Script(
        steps=tuple(steps),
        min_cache_tokens=min_cache_tokens,
        model=model,
        context_window=context_window,
        models=models,
    )


def as_script(value: Script | Sequence[Step] | Mapping[str, Any]) -> Script:
    """Accept a Script, a list of Steps, or the JSON form."""
    if isinstance(value, Script):
        return value
    if isinstance(value, Mapping):
        return parse_script(value)
    return Script(steps=tuple(value))
