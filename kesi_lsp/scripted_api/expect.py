"""Expectations a script step checks against the request it answers.

A scripted conversation only makes sense if the client did what the script assumed (ran the
tool, sent its result back). `check_expectations` returns what did not hold, in words a test
failure can show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

# What `check_expectations` understands; a script naming anything else is refused when parsed.
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


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(b.get("text", ""))
            for b in content
            if isinstance(b, Mapping) and b.get("type") == "text"
        )
    return ""


def _last_user(messages: Sequence[Any]) -> Mapping[str, Any] | None:
    for message in reversed(messages):
        if isinstance(message, Mapping) and message.get("role") == "user":
            return message
    return None


def _last_tool_result(messages: Sequence[Any]) -> Mapping[str, Any] | None:
    user = _last_user(messages)
    content = user.get("content") if user else None
    if not isinstance(content, list):
        return None
    results = [b for b in content if isinstance(b, Mapping) and b.get("type") == "tool_result"]
    return results[-1] if results else None


def _system_text(system: object) -> str:
    return _text_of(system)


def check_expectations(expect: Mapping[str, Any], body: Mapping[str, Any]) -> list[str]:
    """Return a sentence for every expectation in `expect` that `body` does not meet."""
    problems: list[str] = []
    messages = body.get("messages")
    messages = messages if isinstance(messages, list) else []
    for key, wanted in expect.items():
        problem = _check_one(key, wanted, body, messages)
        if problem:
            problems.append(problem)
    return problems


def _check_one(key: str, wanted: Any, body: Mapping[str, Any], messages: list[Any]) -> str | None:
    if key == "last_user_text_contains":
        user = _last_user(messages)
        got = _text_of(user.get("content")) if user else ""
        if str(wanted) not in got:
            return f"expected the last user text to contain {wanted!r}, got {got[:200]!r}"
    elif key in ("last_tool_result_contains", "last_tool_result_is_error"):
        result = _last_tool_result(messages)
        if result is None:
            return f"expected a tool_result in the last user message ({key})"
        if key == "last_tool_result_contains":
            got = _text_of(result.get("content"))
            if str(wanted) not in got:
                return f"expected the last tool_result to contain {wanted!r}, got {got[:300]!r}"
        elif bool(result.get("is_error", False)) != bool(wanted):
            return f"expected the last tool_result is_error={wanted}, got {result.get('is_error')}"
    elif key == "system_contains":
        got = _system_text(body.get("system"))
        if str(wanted) not in got:
            return f"expected the system prompt to contain {wanted!r}"
    elif key == "message_count":
        if len(messages) != wanted:
            return f"expected {wanted} messages, got {len(messages)}"
    elif key == "tools_include":
        names = {t.get("name") for t in body.get("tools") or [] if isinstance(t, Mapping)}
        missing = sorted(set(wanted) - names)
        if missing:
            return f"expected tools {missing} in the request"
    elif key == "stream" and bool(body.get("stream", False)) != bool(wanted):
        return f"expected stream={wanted}"
    return None
