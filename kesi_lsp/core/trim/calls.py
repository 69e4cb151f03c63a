"""Reading a history for trimming: its tool calls with their results, and estimated sizes.

The history holds plain dicts (what KeSi sends) and SDK objects (what came back), so every
accessor here takes either.
"""

from __future__ import annotations

import json
import posixpath
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from anthropic.types import MessageParam

PLACEHOLDER_MARK: Final = "[kesi:cleared]"
"""Starts every placeholder, so a cleared result is recognised (and never cleared twice)."""
UNCHANGED: Final = "[kesi:unchanged]"
"""Starts the note that replaces an unchanged re-read (`unchanged.py`)."""


def estimate_tokens(value: str) -> int:
    """A cheap, deterministic token estimate: ~4 ASCII characters or 1 other character each.

    It only has to rank and bound history sizes; the bill uses the API's own counts.
    """
    if value.isascii():
        return (len(value) + 3) // 4
    extra = len(value.encode("utf-8", "surrogatepass")) - len(value)
    wide = min(len(value), extra // 2)  # CJK takes 3 bytes: about 2 extra bytes per character
    return (len(value) - wide + 3) // 4 + wide


@dataclass(frozen=True)
class ToolCall:
    """A tool_use block of the history and where its result sits."""

    use_id: str
    name: str
    input: Mapping[str, Any]
    result_at: tuple[int, int] | None  # (message index, block index) of its tool_result
    result_text: str
    is_error: bool
    cleared: bool
    tokens: int


def field_of(block: object, key: str) -> Any:
    """`key` of a content block, whether it is a dict or an SDK object."""
    return block.get(key) if isinstance(block, Mapping) else getattr(block, key, None)


def blocks_of(message: Mapping[str, Any]) -> list[Any]:
    """A message's content blocks (a copy; none for string content)."""
    content = message["content"]
    return list(content) if isinstance(content, list) else []


def result_text(block: object) -> str:
    """The text of a tool_result block (its string content, or its text blocks joined)."""
    content = field_of(block, "content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = (field_of(b, "text") for b in content if field_of(b, "type") == "text")
        return "\n".join(str(t or "") for t in texts)
    return ""


def block_tokens(block: object) -> int:
    """Estimated tokens of one content block (a text, a tool_use, a tool_result)."""
    kind = field_of(block, "type")
    if kind == "text":
        return estimate_tokens(str(field_of(block, "text") or ""))
    if kind == "tool_use":
        name = str(field_of(block, "name") or "")
        payload = json.dumps(field_of(block, "input") or {}, ensure_ascii=False, sort_keys=True)
        return estimate_tokens(name) + estimate_tokens(payload)
    if kind == "tool_result":
        return estimate_tokens(result_text(block))
    return 0


def history_tokens(history: Sequence[MessageParam]) -> int:
    """Estimated tokens of the whole history."""
    total = 0
    for message in history:
        content = message["content"]
        if isinstance(content, str):
            total += estimate_tokens(content)
        else:
            total += sum(block_tokens(b) for b in content)
    return total


def _results(history: Sequence[MessageParam]) -> dict[str, tuple[int, int, object]]:
    """Every tool_result of the history by its tool_use_id: (message, block, the block)."""
    results: dict[str, tuple[int, int, object]] = {}
    for m, message in enumerate(history):
        if message["role"] != "user":
            continue
        for b, block in enumerate(blocks_of(message)):
            if field_of(block, "type") == "tool_result":
                results[str(field_of(block, "tool_use_id"))] = (m, b, block)
    return results


def tool_calls(history: Sequence[MessageParam]) -> list[ToolCall]:
    """Every tool call of the history in order, with its result (if answered)."""
    results = _results(history)
    calls: list[ToolCall] = []
    for message in history:
        if message["role"] != "assistant":
            continue
        for block in blocks_of(message):
            if field_of(block, "type") == "tool_use":
                calls.append(_call(block, results.get(str(field_of(block, "id")))))
    return calls


def _call(use: object, found: tuple[int, int, object] | None) -> ToolCall:
    raw_input = field_of(use, "input")
    body = result_text(found[2]) if found else ""
    return ToolCall(
        use_id=str(field_of(use, "id")),
        name=str(field_of(use, "name")),
        input=raw_input if isinstance(raw_input, Mapping) else {},
        result_at=(found[0], found[1]) if found else None,
        result_text=body,
        is_error=bool(field_of(found[2], "is_error")) if found else False,
        cleared=body.startswith(PLACEHOLDER_MARK),
        tokens=estimate_tokens(body),
    )


def normalized_path(raw: object) -> str:
    """A path argument as the model wrote it, normalised so `./a.py` and `a.py` match."""
    value = str(raw or ".").replace("\\", "/")
    return posixpath.normpath(value)


def iter_cleared(history: Sequence[MessageParam]) -> Iterator[str]:
    """The tool_use ids whose results are placeholders (for tests and reports)."""
    for call in tool_calls(history):
        if call.cleared:
            yield call.use_id
