"""Checking the `messages` of a request: roles, content blocks, and tool calls that pair up.

Roles must strictly alternate, starting with the user (stricter than the real API, which
merges repeats: see `validate.py`); every `tool_use` must be answered by a `tool_result` with
its id in the very next message, results first, and no result may answer nothing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final

from kesi_lsp.scripted_api.validate_blocks import (
    TOOL_NAME,
    Problems,
    check_cache_control_of,
    check_text_block,
    reject_extra,
)

TOOL_USE_ID = re.compile(r"^[a-zA-Z0-9_-]+$")
USER_BLOCKS: Final = frozenset({"text", "image", "document", "tool_result", "search_result"})
ASSISTANT_BLOCKS: Final = frozenset({"text", "tool_use", "thinking", "redacted_thinking"})
TRAILING_WHITESPACE: Final = "final assistant content cannot end with trailing whitespace"


def check_messages(messages: Sequence[Any], has_tools: bool, out: Problems) -> None:
    if not messages:
        out.add("messages", "at least one message is required")
        return
    seen_ids: set[str] = set()
    uses_tools = False
    previous_role: str | None = None
    for m, message in enumerate(messages):
        role = _check_role(message, m, previous_role, out)
        if role is None:
            continue
        previous_role = role
        last = m == len(messages) - 1
        content = message.get("content")
        uses_tools |= _check_content(content, role, f"messages.{m}", last, seen_ids, out)
    if uses_tools and not has_tools:
        out.add("", "Requests which include `tool_use` or `tool_result` blocks must define tools.")
    _check_tool_pairing(messages, out)


def _check_role(message: object, m: int, previous_role: str | None, out: Problems) -> str | None:
    """The message's role, checked for order; None if the message cannot be read further."""
    where = f"messages.{m}"
    if not isinstance(message, Mapping):
        out.add(where, "Input should be an object")
        return None
    role = message.get("role")
    if role not in ("user", "assistant"):
        out.add(f"{where}.role", "Input should be 'user' or 'assistant'")
        return None
    if m == 0 and role != "user":
        out.add(f"{where}.role", 'first message must use the "user" role')
    if role == previous_role:
        out.add(
            "messages",
            f'roles must alternate between "user" and "assistant", '
            f'but found multiple "{role}" roles in a row (at {where})',
        )
    return str(role)


def _check_content(
    content: object, role: str, where: str, last: bool, seen_ids: set[str], out: Problems
) -> bool:
    """Check one message's content; return True if it has tool_use/tool_result blocks."""
    final_assistant = last and role == "assistant"
    if isinstance(content, str):
        if not content and not final_assistant:
            out.add(where, "all messages must have non-empty content")
        elif final_assistant and content != content.rstrip():
            out.add(where, TRAILING_WHITESPACE)
        return False
    if not isinstance(content, list):
        out.add(f"{where}.content", "Input should be a string or a list of blocks")
        return False
    if not content:
        out.add(where, "all messages must have non-empty content")
        return False
    uses_tools = _check_blocks(content, role, where, seen_ids, out)
    final = content[-1]
    if final_assistant and isinstance(final, Mapping) and final.get("type") == "text":
        value = final.get("text")
        if isinstance(value, str) and value != value.rstrip():
            out.add(where, TRAILING_WHITESPACE)
    return uses_tools


def _check_blocks(
    content: list[Any], role: str, where: str, seen_ids: set[str], out: Problems
) -> bool:
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
        elif kind == "text":
            check_text_block(block, bwhere, out)
        elif kind == "tool_use":
            uses_tools = True
            _check_tool_use(block, bwhere, seen_ids, out)
        elif kind == "tool_result":
            uses_tools = True
            _check_tool_result(block, bwhere, out)
        else:
            check_cache_control_of(block, bwhere, out)
    return uses_tools


def _check_tool_use(
    block: Mapping[str, Any], where: str, seen_ids: set[str], out: Problems
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
    reject_extra(block, {"type", "id", "name", "input", "cache_control", "caller"}, where, out)
    check_cache_control_of(block, where, out)


def _check_tool_result(block: Mapping[str, Any], where: str, out: Problems) -> None:
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
                check_text_block(sub, swhere, out)
    elif content is not None and not isinstance(content, str):
        out.add(f"{where}.content", "Input should be a string or a list of blocks")
    allowed = {"type", "tool_use_id", "content", "is_error", "cache_control"}
    reject_extra(block, allowed, where, out)
    check_cache_control_of(block, where, out)


# --- tool calls pair up ---


def _blocks_of(message: object, kind: str) -> list[Mapping[str, Any]]:
    if not isinstance(message, Mapping) or not isinstance(message.get("content"), list):
        return []
    return [b for b in message["content"] if isinstance(b, Mapping) and b.get("type") == kind]


def _check_tool_pairing(messages: Sequence[Any], out: Problems) -> None:
    """Every tool_use is answered in the very next (user) message, and nothing else is."""
    for m, message in enumerate(messages):
        if not isinstance(message, Mapping):
            continue
        if message.get("role") == "assistant":
            _check_uses_answered(messages, m, out)
        elif message.get("role") == "user":
            _check_results_asked(messages, m, out)


def _check_uses_answered(messages: Sequence[Any], m: int, out: Problems) -> None:
    use_ids = [str(b.get("id")) for b in _blocks_of(messages[m], "tool_use")]
    if not use_ids:
        return
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


def _check_results_asked(messages: Sequence[Any], m: int, out: Problems) -> None:
    results = _blocks_of(messages[m], "tool_result")
    if not results:
        return
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
    _check_results_first(messages[m], m, out)


def _check_results_first(message: Mapping[str, Any], m: int, out: Problems) -> None:
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
