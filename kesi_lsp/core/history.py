"""Keeping the conversation history ("the diary") sendable, whatever happened.

The Messages API refuses a history in which a `tool_use` is not answered by a `tool_result` in
the very next message (Day 5, Day 12). KeSi keeps a stricter invariant still: roles strictly
alternate, starting with the user, so the history never depends on the API merging turns. Every
function here preserves that invariant; `check_history` states it, for tests and for defence.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kesi_lsp.catalog import Locale, text

if TYPE_CHECKING:
    from anthropic.types import (
        ContentBlock,
        ContentBlockParam,
        MessageParam,
        TextBlockParam,
        ToolResultBlockParam,
        ToolUseBlockParam,
    )


def _get(block: object, key: str) -> Any:
    if isinstance(block, dict):
        return block.get(key)
    return getattr(block, key, None)


def block_type(block: object) -> str | None:
    """The `type` of a block, whether an SDK object or a param dict."""
    value = _get(block, "type")
    return value if isinstance(value, str) else None


def text_param(value: str) -> TextBlockParam:
    return {"type": "text", "text": value}


def tool_result(tool_use_id: str, output: str, is_error: bool) -> ToolResultBlockParam:
    return {
        "type": "tool_result",
        "tool_use_id": tool_use_id,
        "content": output,
        "is_error": is_error,
    }


def to_params(blocks: Iterable[ContentBlock | ContentBlockParam]) -> list[ContentBlockParam]:
    """The API's reply blocks as history params: text and tool_use only, no empty text.

    An empty or whitespace-only text block would make the next request invalid ("text content
    blocks must contain non-whitespace text"), so it is dropped; nothing else is lost.
    """
    out: list[ContentBlockParam] = []
    for block in blocks:
        kind = block_type(block)
        if kind == "text":
            value = _get(block, "text")
            if isinstance(value, str) and value.strip():
                out.append(text_param(value))
        elif kind == "tool_use":
            use: ToolUseBlockParam = {
                "type": "tool_use",
                "id": str(_get(block, "id")),
                "name": str(_get(block, "name")),
                "input": copy.deepcopy(_get(block, "input") or {}),
            }
            out.append(use)
    return out


def tool_uses(content: object) -> list[ToolUseBlockParam]:
    """The tool_use blocks of a message's content (none for string content)."""
    if not isinstance(content, list):
        return []
    return [b for b in content if block_type(b) == "tool_use"]


def add_user_prompt(history: list[MessageParam], prompt: str, locale: Locale) -> None:
    """Append the user's prompt, keeping roles alternating.

    After an API error the seed leaves the user's message in place (Day 12: "那一輪的 user 訊息
    還在"), so the history may already end with a user message; the real API would merge the
    two turns, and KeSi merges them itself: the new prompt becomes one more text block of that
    message (after any tool results, which must come first). A dangling tool_use is sealed first.
    """
    seal_dangling_tool_use(history, locale)
    if history and history[-1]["role"] == "user":
        last = history[-1]
        content = last["content"]
        blocks: list[Any] = [text_param(content)] if isinstance(content, str) else list(content)
        blocks.append(text_param(prompt))
        history[-1] = {"role": "user", "content": blocks}
        return
    history.append({"role": "user", "content": prompt})


def add_note(history: list[MessageParam], note: str) -> None:
    """Add a note from KeSi (not the user's words: the note says so) to the user message that
    ends the history, after its tool results, just before the next request."""
    if not history or history[-1]["role"] != "user":
        history.append({"role": "user", "content": [text_param(note)]})
        return
    content = history[-1]["content"]
    blocks: list[Any] = [text_param(content)] if isinstance(content, str) else list(content)
    blocks.append(text_param(note))
    history[-1] = {"role": "user", "content": blocks}


def add_assistant(history: list[MessageParam], content: Sequence[ContentBlockParam] | str) -> None:
    """Append an assistant message, or extend the last one if it is already the assistant's."""
    new: list[ContentBlockParam] = (
        [text_param(content)] if isinstance(content, str) else list(content)
    )
    if not new:
        return
    if history and history[-1]["role"] == "assistant":
        previous = history[-1]["content"]
        merged: list[Any] = [text_param(previous)] if isinstance(previous, str) else list(previous)
        history[-1] = {"role": "assistant", "content": [*merged, *new]}
        return
    if isinstance(content, str):
        history.append({"role": "assistant", "content": content})
    else:
        history.append({"role": "assistant", "content": new})


def seal_dangling_tool_use(history: list[MessageParam], locale: Locale) -> bool:
    """Answer every tool_use of a trailing assistant message with "state unknown" (Day 12).

    The wording is "unknown", not "not run": the interruption may have landed after edit_file,
    write_file or run_command had already changed something. Returns True if it added a result.
    """
    if not history or history[-1]["role"] != "assistant":
        return False
    pending = tool_uses(history[-1]["content"])
    if not pending:
        return False
    message = text("loop.tool_state_unknown", locale)
    results: list[Any] = [tool_result(str(use["id"]), message, True) for use in pending]
    history.append({"role": "user", "content": results})
    return True


def with_cache_breakpoint(history: Sequence[MessageParam]) -> list[MessageParam]:
    """A copy of `history` whose last block carries `cache_control` (the growing conversation).

    The history itself is never marked: breakpoints would pile up past the API's limit of 4.
    """
    messages = [copy.copy(m) for m in history]
    if not messages:
        return messages
    last = messages[-1]
    content = last["content"]
    blocks: list[Any] = (
        [text_param(content)] if isinstance(content, str) else copy.deepcopy(list(content))
    )
    if not blocks:
        return messages
    blocks[-1]["cache_control"] = {"type": "ephemeral"}
    if last["role"] == "assistant":
        messages[-1] = {"role": "assistant", "content": blocks}
    else:
        messages[-1] = {"role": "user", "content": blocks}
    return messages


def check_history(history: Sequence[MessageParam]) -> list[str]:
    """Problems that would make the next request invalid (empty when the history is sound)."""
    problems: list[str] = []
    for i, message in enumerate(history):
        role = message["role"]
        expected = "user" if i % 2 == 0 else "assistant"
        if role != expected:
            problems.append(f"message {i} is {role!r}, expected {expected!r}")
        content = message["content"]
        if not content:
            problems.append(f"message {i} is empty")
        uses = tool_uses(content) if role == "assistant" else []
        if uses:
            following = history[i + 1] if i + 1 < len(history) else None
            answered = set()
            if following is not None and isinstance(following["content"], list):
                answered = {
                    _get(b, "tool_use_id")
                    for b in following["content"]
                    if block_type(b) == "tool_result"
                }
            for use in uses:
                if use["id"] not in answered:
                    problems.append(f"tool_use {use['id']} in message {i} is not answered")
    return problems
