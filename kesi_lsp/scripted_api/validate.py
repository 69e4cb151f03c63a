"""Check a Messages API request the way the real API does, and a little stricter.

Every rule here is one the real API enforces with a 400 `invalid_request_error`, with one
deliberate exception: the real API merges consecutive same-role messages, while this server
refuses them (`roles must alternate`). KeSi's history never needs merging, so a repeated role
means the loop wrote its history wrongly, and a test should say so.

`validate_request(body, headers)` returns the list of problems (empty when valid); each reads
like the API's own message, prefixed with the JSON path it concerns.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

MAX_CACHE_BREAKPOINTS: Final = 4
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")
TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")

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
USER_BLOCKS: Final = frozenset({"text", "image", "document", "tool_result", "search_result"})
ASSISTANT_BLOCKS: Final = frozenset({"text", "tool_use", "thinking", "redacted_thinking"})
SCHEMA_TYPES: Final = frozenset(
    {"object", "string", "number", "integer", "boolean", "array", "null"}
)


class _Problems:
    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}" if where else message)


def validate_request(body: object, headers: Mapping[str, str] | None = None) -> list[str]:
    """Return every problem the real API would reject `body` (and `headers`) for."""
    out = _Problems()
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
        _check_tools(tools, out)
    if "system" in body:
        _check_system(body["system"], out)
    messages = body.get("messages")
    if not isinstance(messages, list):
        out.add("messages", "Field required" if messages is None else "Input should be a list")
    else:
        _check_messages(messages, tools is not None, out)
    _check_cache_control_count(body, out)
    return out.items


def _check_headers(headers: Mapping[str, str], out: _Problems) -> None:
    lower = {k.lower(): v for k, v in headers.items()}
    if not lower.get("x-api-key") and not lower.get("authorization"):
        out.add("headers", "x-api-key header is required")
    if not lower.get("anthropic-version"):
        out.add("headers", "anthropic-version: header is required")


def _check_scalars(body: Mapping[str, Any], out: _Problems) -> None:
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


def _check_cache_control(value: object, where: str, out: _Problems) -> None:
    if not isinstance(value, Mapping) or value.get("type") != "ephemeral":
        out.add(f"{where}.cache_control", "cache_control must be {'type': 'ephemeral'}")
        return
    extra = set(value) - {"type", "ttl"}
    if extra:
        out.add(f"{where}.cache_control", f"Extra inputs are not permitted: {sorted(extra)}")
    if "ttl" in value and value["ttl"] not in ("5m", "1h"):
        out.add(f"{where}.cache_control.ttl", "Input should be '5m' or '1h'")


def _check_tools(tools: object, out: _Problems) -> None:
    names: set[str] = set()
    if not isinstance(tools, list):
        out.add("tools", "Input should be a list")
        return
    for i, tool in enumerate(tools):
        where = f"tools.{i}"
        if not isinstance(tool, Mapping):
            out.add(where, "Input should be an object")
            continue
        name = tool.get("name")
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            out.add(f"{where}.name", f"String should match pattern '{TOOL_NAME.pattern}'")
        elif name in names:
            out.add("tools", f"Tool names must be unique. Found duplicate: {name}")
        else:
            names.add(name)
        extra = set(tool) - {"name", "description", "input_schema", "cache_control", "strict"}
        extra -= {"type", "input_examples", "defer_loading", "eager_input_streaming"}
        for key in sorted(extra):
            out.add(f"{where}.{key}", "Extra inputs are not permitted")
        if "description" in tool and not isinstance(tool["description"], str):
            out.add(f"{where}.description", "Input should be a valid string")
        if "strict" in tool and not isinstance(tool["strict"], bool):
            out.add(f"{where}.strict", "Input should be a valid boolean")
        if "cache_control" in tool:
            _check_cache_control(tool["cache_control"], where, out)
        _check_input_schema(tool.get("input_schema"), f"{where}.input_schema", out)
        if tool.get("strict") is True:
            schema = tool.get("input_schema")
            if isinstance(schema, Mapping) and schema.get("additionalProperties") is not False:
                out.add(
                    f"{where}.input_schema",
                    "strict tools require 'additionalProperties': false",
                )


def _check_input_schema(schema: object, where: str, out: _Problems) -> None:
    if schema is None:
        out.add(where, "Field required")
        return
    if not isinstance(schema, Mapping):
        out.add(where, "Input should be an object")
        return
    if schema.get("type") != "object":
        out.add(f"{where}.type", "Input should be 'object'")
    _check_schema_node(schema, where, out)


def _check_schema_node(node: Mapping[str, Any], where: str, out: _Problems) -> None:
    kind = node.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if kind is not None else []
    for k in kinds:
        if k not in SCHEMA_TYPES:
            out.add(f"{where}.type", f"JSON schema is invalid: unknown type {k!r}")
    props = node.get("properties")
    if props is not None:
        if not isinstance(props, Mapping):
            out.add(f"{where}.properties", "JSON schema is invalid: properties must be an object")
            props = {}
        for name, sub in props.items():
            if not isinstance(sub, Mapping):
                out.add(f"{where}.properties.{name}", "JSON schema is invalid: not a schema")
            else:
                _check_schema_node(sub, f"{where}.properties.{name}", out)
    required = node.get("required")
    if required is not None:
        if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
            out.add(f"{where}.required", "JSON schema is invalid: required must list names")
        else:
            missing = [r for r in required if r not in (props or {})]
            if missing:
                out.add(f"{where}.required", f"JSON schema is invalid: unknown {missing}")
    items = node.get("items")
    if isinstance(items, Mapping):
        _check_schema_node(items, f"{where}.items", out)


def _check_system(system: object, out: _Problems) -> None:
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
        _check_text_block(block, where, out)


def _check_text_block(block: Mapping[str, Any], where: str, out: _Problems) -> None:
    text = block.get("text")
    if not isinstance(text, str):
        out.add(f"{where}.text", "Field required")
    elif not text:
        out.add(where, "text content blocks must be non-empty")
    elif not text.strip():
        out.add(where, "text content blocks must contain non-whitespace text")
    extra = set(block) - {"type", "text", "cache_control", "citations"}
    for key in sorted(extra):
        out.add(f"{where}.{key}", "Extra inputs are not permitted")
    if "cache_control" in block:
        _check_cache_control(block["cache_control"], where, out)


def _check_messages(messages: Sequence[Any], has_tools: bool, out: _Problems) -> None:
    if not messages:
        out.add("messages", "at least one message is required")
        return
    seen_ids: set[str] = set()
    uses_tools = False
    previous_role: str | None = None
    for m, message in enumerate(messages):
        where = f"messages.{m}"
        if not isinstance(message, Mapping):
            out.add(where, "Input should be an object")
            continue
        role = message.get("role")
        if role not in ("user", "assistant"):
            out.add(f"{where}.role", "Input should be 'user' or 'assistant'")
            continue
        if m == 0 and role != "user":
            out.add(f"{where}.role", 'first message must use the "user" role')
        if role == previous_role:
            out.add(
                "messages",
                f'roles must alternate between "user" and "assistant", '
                f'but found multiple "{role}" roles in a row (at {where})',
            )
        previous_role = role
        last = m == len(messages) - 1
        uses_tools |= _check_content(message.get("content"), role, where, last, seen_ids, out)
    if uses_tools and not has_tools:
        out.add("", "Requests which include `tool_use` or `tool_result` blocks must define tools.")
    _check_tool_pairing(messages, out)


def _check_content(
    content: object, role: str, where: str, last: bool, seen_ids: set[str], out: _Problems
) -> bool:
    """Check one message's content; return True if it has tool_use/tool_result blocks."""
    if isinstance(content, str):
        if not content and not (last and role == "assistant"):
            out.add(where, "all messages must have non-empty content")
        elif last and role == "assistant" and content != content.rstrip():
            out.add(where, "final assistant content cannot end with trailing whitespace")
        return False
    if not isinstance(content, list):
        out.add(f"{where}.content", "Input should be a string or a list of blocks")
        return False
    if not content:
        out.add(where, "all messages must have non-empty content")
        return False
    allowed = USER_BLOCKS if role == "user" else ASSISTANT_BLOCKS
    uses_tools = False
    for b, block in enumerate(content):
        bwhere = f"{where}.content.{b}"
        if not isinstance(block, Mapping):
            out.add(bwhere, "Input should be an object")
            continue
        kind = block.get("type")
        if kind not in allowed:
            out.add(f"{bwhere}.type", f"a {role} message cannot contain {kind!r} blocks")
            continue
        if kind == "text":
            _check_text_block(block, bwhere, out)
        elif kind == "tool_use":
            uses_tools = True
            _check_tool_use(block, bwhere, seen_ids, out)
        elif kind == "tool_result":
            uses_tools = True
            _check_tool_result(block, bwhere, out)
        elif "cache_control" in block:
            _check_cache_control(block["cache_control"], bwhere, out)
    if last and role == "assistant":
        final = content[-1]
        if isinstance(final, Mapping) and final.get("type") == "text":
            value = final.get("text")
            if isinstance(value, str) and value != value.rstrip():
                out.add(where, "final assistant content cannot end with trailing whitespace")
    return uses_tools


def _check_tool_use(
    block: Mapping[str, Any], where: str, seen_ids: set[str], out: _Problems
) -> None:
    block_id = block.get("id")
    if not isinstance(block_id, str) or not TOOL_USE_ID.match(block_id):
        out.add(f"{where}.id", f"String should match pattern '{TOOL_USE_ID.pattern}'")
    elif block_id in seen_ids:
        out.add(where, f"`tool_use` ids must be unique. Found duplicate: {block_id}")
    else:
        seen_ids.add(block_id)
    name = block.get("name")
    if not isinstance(name, str) or not TOOL_NAME.match(name):
        out.add(f"{where}.name", f"String should match pattern '{TOOL_NAME.pattern}'")
    if not isinstance(block.get("input"), Mapping):
        out.add(f"{where}.input", "Input should be a valid dictionary")
    extra = set(block) - {"type", "id", "name", "input", "cache_control", "caller"}
    for key in sorted(extra):
        out.add(f"{where}.{key}", "Extra inputs are not permitted")
    if "cache_control" in block:
        _check_cache_control(block["cache_control"], where, out)


def _check_tool_result(block: Mapping[str, Any], where: str, out: _Problems) -> None:
    if not isinstance(block.get("tool_use_id"), str):
        out.add(f"{where}.tool_use_id", "Field required")
    if "is_error" in block and not isinstance(block["is_error"], bool):
        out.add(f"{where}.is_error", "Input should be a valid boolean")
    content = block.get("content")
    if isinstance(content, list):
        for i, sub in enumerate(content):
            swhere = f"{where}.content.{i}"
            if not isinstance(sub, Mapping) or sub.get("type") not in ("text", "image", "document"):
                out.add(swhere, "tool_result content must be text, image or document blocks")
            elif sub.get("type") == "text":
                _check_text_block(sub, swhere, out)
    elif content is not None and not isinstance(content, str):
        out.add(f"{where}.content", "Input should be a string or a list of blocks")
    extra = set(block) - {"type", "tool_use_id", "content", "is_error", "cache_control"}
    for key in sorted(extra):
        out.add(f"{where}.{key}", "Extra inputs are not permitted")
    if "cache_control" in block:
        _check_cache_control(block["cache_control"], where, out)


def _blocks_of(message: object, kind: str) -> list[Mapping[str, Any]]:
    if not isinstance(message, Mapping) or not isinstance(message.get("content"), list):
        return []
    return [b for b in message["content"] if isinstance(b, Mapping) and b.get("type") == kind]


def _check_tool_pairing(messages: Sequence[Any], out: _Problems) -> None:
    """Every tool_use is answered in the very next (user) message, and nothing else is."""
    for m, message in enumerate(messages):
        if not isinstance(message, Mapping):
            continue
        if message.get("role") == "assistant":
            use_ids = [str(b.get("id")) for b in _blocks_of(message, "tool_use")]
            if not use_ids:
                continue
            following = messages[m + 1] if m + 1 < len(messages) else None
            answered = {str(b.get("tool_use_id")) for b in _blocks_of(following, "tool_result")}
            missing = [i for i in use_ids if i not in answered]
            if missing:
                out.add(
                    f"messages.{m}",
                    "`tool_use` ids were found without `tool_result` blocks immediately "
                    f"after: {', '.join(missing)}. Each `tool_use` block must have a "
                    "corresponding `tool_result` block in the next message.",
                )
        elif message.get("role") == "user":
            results = _blocks_of(message, "tool_result")
            if not results:
                continue
            previous = messages[m - 1] if m > 0 else None
            asked = {str(b.get("id")) for b in _blocks_of(previous, "tool_use")}
            for b in results:
                if str(b.get("tool_use_id")) not in asked:
                    out.add(
                        f"messages.{m}",
                        "unexpected `tool_use_id` found in `tool_result` blocks: "
                        f"{b.get('tool_use_id')}. Each `tool_result` block must have a "
                        "corresponding `tool_use` block in the previous message.",
                    )
            _check_results_first(message, m, out)


def _check_results_first(message: Mapping[str, Any], m: int, out: _Problems) -> None:
    seen_other = False
    for block in message.get("content", []):
        kind = block.get("type") if isinstance(block, Mapping) else None
        if kind == "tool_result" and seen_other:
            out.add(
                f"messages.{m}",
                "`tool_result` blocks must come first in the content of a user message, "
                "before any other blocks",
            )
            return
        if kind != "tool_result":
            seen_other = True


def _cache_control_count(body: Mapping[str, Any]) -> int:
    count = 0
    for tool in body.get("tools") or []:
        if isinstance(tool, Mapping) and "cache_control" in tool:
            count += 1
    system = body.get("system")
    if isinstance(system, list):
        count += sum(1 for b in system if isinstance(b, Mapping) and "cache_control" in b)
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, Mapping) else None
        if isinstance(content, list):
            for block in content:
                if isinstance(block, Mapping):
                    count += "cache_control" in block
                    inner = block.get("content")
                    if isinstance(inner, list):
                        count += sum(
                            1 for s in inner if isinstance(s, Mapping) and "cache_control" in s
                        )
    return count


def _check_cache_control_count(body: Mapping[str, Any], out: _Problems) -> None:
    count = _cache_control_count(body)
    if count > MAX_CACHE_BREAKPOINTS:
        out.add(
            "",
            f"A maximum of {MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. "
            f"Found {count}.",
        )
