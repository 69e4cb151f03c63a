"""Check a Messages API request the way the real API does, and a little stricter.

Every rule here is one the real API enforces with a 400 `invalid_request_error`, with one
deliberate exception: the real API merges consecutive same-role messages, while this server
refuses them (`roles must alternate`). KeSi's history never needs merging, so a repeated role
means the loop wrote its history wrongly, and a test should say so.

`validate_request(body, headers)` returns the list of problems (empty when valid); each reads
like the API's own message, prefixed with the JSON path it concerns. This module checks the
request as a whole; `validate_tools.py` its tools, `validate_messages.py` its messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from kesi_lsp.scripted_api.validate_blocks import Problems, check_text_block
from kesi_lsp.scripted_api.validate_messages import check_messages
from kesi_lsp.scripted_api.validate_tools import check_tools

MAX_CACHE_BREAKPOINTS: Final = 4

TOP_LEVEL_KEYS: Final = frozenset(
    {
        "model",
        "max_tokens",
        "messages",
        "system",
        "tools",
        "tool_choice",
        "stream",
        "temperature",
        "top_p",
        "top_k",
        "stop_sequences",
        "metadata",
        "thinking",
        "service_tier",
        "output_config",
        "container",
        "context_management",
        "mcp_servers",
        "inference_geo",
    }
)


def validate_request(body: object, headers: Mapping[str, str] | None = None) -> list[str]:
    """Return every problem the real API would reject `body` (and `headers`) for."""
    out = Problems()
    if headers is not None:
        _check_headers(headers, out)
    if not isinstance(body, Mapping):
        out.add("", "request body must be a JSON object")
        return out.items
    for key in sorted(set(body) - TOP_LEVEL_KEYS):
        out.add(key, "Extra inputs are not permitted")
    _check_scalars(body, out)
    tools = body.get("tools")
    if tools is not None:
        check_tools(tools, out)
    if "system" in body:
        _check_system(body["system"], out)
    messages = body.get("messages")
    if not isinstance(messages, list):
        out.add("messages", "Field required" if messages is None else "Input should be a list")
    else:
        check_messages(messages, tools is not None, out)
    _check_cache_control_count(body, out)
    return out.items


def _check_headers(headers: Mapping[str, str], out: Problems) -> None:
    lower = {k.lower(): v for k, v in headers.items()}
    if not lower.get("x-api-key") and not lower.get("authorization"):
        out.add("headers", "x-api-key header is required")
    if not lower.get("anthropic-version"):
        out.add("headers", "anthropic-version: header is required")


def _check_scalars(body: Mapping[str, Any], out: Problems) -> None:
    model = body.get("model")
    if model is None:
        out.add("model", "Field required")
    elif not isinstance(model, str) or not model:
        out.add("model", "Input should be a non-empty string")
    max_tokens = body.get("max_tokens")
    if max_tokens is None:
        out.add("max_tokens", "Field required")
    elif isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        out.add("max_tokens", "Input should be an integer greater than or equal to 1")
    stream = body.get("stream")
    if stream is not None and not isinstance(stream, bool):
        out.add("stream", "Input should be a valid boolean")


def _check_system(system: object, out: Problems) -> None:
    if isinstance(system, str):
        return
    if not isinstance(system, list):
        out.add("system", "Input should be a string or a list of text blocks")
        return
    for i, block in enumerate(system):
        where = f"system.{i}"
        if not isinstance(block, Mapping) or block.get("type") != "text":
            out.add(where, "system blocks must be text blocks")
            continue
        check_text_block(block, where, out)


def _marked(blocks: object) -> int:
    """How many of `blocks` (if it is a list of blocks) carry a `cache_control`."""
    if not isinstance(blocks, list):
        return 0
    return sum(1 for b in blocks if isinstance(b, Mapping) and "cache_control" in b)


def _cache_control_count(body: Mapping[str, Any]) -> int:
    """Breakpoints in tools, system blocks, message blocks and tool_result contents."""
    count = _marked(body.get("tools")) + _marked(body.get("system"))
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, Mapping) else None
        count += _marked(content)
        for block in content if isinstance(content, list) else []:
            if isinstance(block, Mapping):
                count += _marked(block.get("content"))
    return count


def _check_cache_control_count(body: Mapping[str, Any], out: Problems) -> None:
    count = _cache_control_count(body)
    if count > MAX_CACHE_BREAKPOINTS:
        out.add(
            "",
            f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. "
            f"Found {count}.",
        )
