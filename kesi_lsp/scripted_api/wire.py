"""The Messages API wire format: a reply as one JSON message or as the SSE events that carry it.

`plan_events` lists, in order, exactly the events the server sends for a streamed reply, so a
script author can count them (faults fire "after N events") and a test can find the index of,
say, the first `input_json_delta`. Text is cut every `text_chunk` characters; tool input JSON is
cut every `json_chunk` characters, after an initial empty delta, as the real API does — the cuts
fall in the middle of keys and strings on purpose.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kesi_lsp.scripted_api.script import Script, Step, TextBlock, ToolUseBlock


@dataclass(frozen=True)
class Usage:
    """The usage numbers one reply reports."""

    input_tokens: int
    output_tokens: int
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0

    def to_json(self, *, output_tokens: int | None = None) -> dict[str, int]:
        return {
            "input_tokens": self.input_tokens,
            "cache_creation_input_tokens": self.cache_creation_input_tokens,
            "cache_read_input_tokens": self.cache_read_input_tokens,
            "output_tokens": self.output_tokens if output_tokens is None else output_tokens,
        }


@dataclass(frozen=True)
class SseEvent:
    """One Server-Sent Event: its `event:` name and its JSON `data`."""

    name: str
    data: Mapping[str, Any]

    @property
    def label(self) -> str:
        """The name a script counts and a record lists: the event name, or for a
        `content_block_delta` its delta type (`text_delta`, `input_json_delta`)."""
        delta = self.data.get("delta")
        if self.name == "content_block_delta" and isinstance(delta, Mapping):
            return str(delta.get("type"))
        return self.name

    def encode(self) -> bytes:
        payload = json.dumps(self.data, ensure_ascii=False, separators=(",", ":"))
        return f"event: {self.name}\ndata: {payload}\n\n".encode()


def tool_use_id(request_number: int, index: int, block: ToolUseBlock) -> str:
    """The id of a tool_use block: the script's, else `toolu_scripted_<request>_<index>`."""
    return block.id or f"toolu_scripted_{request_number}_{index}"


def content_json(step: Step, request_number: int) -> list[dict[str, Any]]:
    """The reply's content blocks as the API returns them in a whole message."""
    out: list[dict[str, Any]] = []
    for index, block in enumerate(step.content):
        if isinstance(block, TextBlock):
            out.append({"type": "text", "text": block.text})
        else:
            out.append(
                {
                    "type": "tool_use",
                    "id": tool_use_id(request_number, index, block),
                    "name": block.name,
                    "input": dict(block.input),
                }
            )
    return out


def message_json(step: Step, *, request_number: int, model: str, usage: Usage) -> dict[str, Any]:
    """The non-streaming reply body."""
    return {
        "id": f"msg_scripted_{request_number}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content_json(step, request_number),
        "stop_reason": step.effective_stop_reason,
        "stop_sequence": None,
        "usage": usage.to_json(),
    }


REAL_WINDOW = 200_000  # Claude Haiku 4.5's max_input_tokens, as the real Models API reports it


def model_info(model: str, script: Script) -> dict[str, Any]:
    """The Models API's answer for `model` (`GET /v1/models/{id}`): its window is the script's
    `context_window` (the size this server refuses above), else the real one; "no_window" leaves
    it out, as an API that does not report it."""
    out: dict[str, Any] = {
        "type": "model",
        "id": model,
        "display_name": model,
        "created_at": "2025-10-01T00:00:00Z",
        "lifecycle": "active",
    }
    if script.models == "window":
        out["max_input_tokens"] = script.context_window or REAL_WINDOW
        out["max_tokens"] = 64_000
    return out


def _chunks(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def plan_events(
    step: Step, *, request_number: int = 1, model: str = "scripted", usage: Usage | None = None
) -> list[SseEvent]:
    """Every SSE event of the streamed reply, in order (faults not applied)."""
    usage = usage or Usage(input_tokens=0, output_tokens=0)
    start_message: dict[str, Any] = {
        "id": f"msg_scripted_{request_number}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": usage.to_json(output_tokens=1),
    }
    events = [
        SseEvent("message_start", {"type": "message_start", "message": start_message}),
        SseEvent("ping", {"type": "ping"}),
    ]
    timing = step.timing
    for index, block in enumerate(step.content):
        events.extend(
            _block_events(block, index, request_number, timing.text_chunk, timing.json_chunk)
        )
    events.append(
        SseEvent(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": step.effective_stop_reason, "stop_sequence": None},
                "usage": usage.to_json(),
            },
        )
    )
    events.append(SseEvent("message_stop", {"type": "message_stop"}))
    return events


def _block_events(
    block: TextBlock | ToolUseBlock,
    index: int,
    request_number: int,
    text_chunk: int,
    json_chunk: int,
) -> list[SseEvent]:
    events: list[SseEvent] = []
    if isinstance(block, TextBlock):
        start: dict[str, Any] = {"type": "text", "text": ""}
        deltas = [
            {"type": "text_delta", "text": piece} for piece in _chunks(block.text, text_chunk)
        ]
    else:
        start = {
            "type": "tool_use",
            "id": tool_use_id(request_number, index, block),
            "name": block.name,
            "input": {},
        }
        raw = block.raw_json
        if raw is None:
            raw = json.dumps(dict(block.input), ensure_ascii=False)
        pieces = ["", *_chunks(raw, json_chunk)]
        deltas = [{"type": "input_json_delta", "partial_json": piece} for piece in pieces]
    events.append(
        SseEvent(
            "content_block_start",
            {"type": "content_block_start", "index": index, "content_block": start},
        )
    )
    for delta in deltas:
        events.append(
            SseEvent(
                "content_block_delta",
                {"type": "content_block_delta", "index": index, "delta": delta},
            )
        )
    events.append(SseEvent("content_block_stop", {"type": "content_block_stop", "index": index}))
    return events


def error_event(body: Mapping[str, Any]) -> SseEvent:
    """The `error` SSE event carrying an API error body."""
    return SseEvent("error", body)


def event_names(step: Step) -> list[str]:
    """Names of the planned events, with the delta type for deltas (`text_delta`, ...).

    Handy to compute `after_events` for a fault: `event_names(step).index("input_json_delta")`.
    """
    return [event.label for event in plan_events(step)]
