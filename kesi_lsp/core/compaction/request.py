"""The summarising request, and reading its answer.

The request is the loop's own request for the part being summarised — same model, same system
prompt, same tools, the same messages up to the cut — with one more text block asking for the
summary, and `tool_choice: none` so the model writes instead of calling tools. Sharing the
prefix is what makes a summary affordable: the messages up to the cut were the whole of an
earlier request, so the prompt cache already holds them and they are read at a tenth of the
price (a lookback from the breakpoint on the new block finds them).

When the API has just said the prompt is too long, the messages may not fit even once; then
the large tool results of the part being summarised are clipped to their head and tail for
this request only (the summary needs their gist, not every line).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

import anthropic

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.history import block_type, text_param, with_cache_breakpoint
from kesi_lsp.core.trim.calls import estimate_tokens, result_text
from kesi_lsp.core.untrusted import marked_history

if TYPE_CHECKING:
    from anthropic.types import Message, MessageParam

SUMMARY_MAX_TOKENS: Final = 8_192
CLIP_CHARS: Final = 1_500
"""In a clipped summary request, each tool result keeps about this many characters: a history
the API refused is mostly tool output, and the summary needs its gist, not every line."""

TOO_LONG_MARKS: Final = ("prompt is too long", "too many tokens", "context window")


def prompt_too_long(error: BaseException | None) -> bool:
    """Whether a failed request was refused for its size (the fallback's trigger)."""
    if isinstance(error, anthropic.APIStatusError) and error.status_code == 413:
        return True
    if not isinstance(error, anthropic.BadRequestError):
        return False
    message = (error.message or "").lower()
    return any(mark in message for mark in TOO_LONG_MARKS)


def _clip(value: str, locale: Locale) -> str:
    if len(value) <= CLIP_CHARS:
        return value
    half = CLIP_CHARS // 2
    note = text("compaction.clipped", locale, tokens=f"{estimate_tokens(value[half:-half]):,}")
    return f"{value[:half]}\n{note}\n{value[-half:]}"


def _clipped(messages: Sequence[MessageParam], locale: Locale) -> list[MessageParam]:
    out: list[MessageParam] = []
    for message in messages:
        content = message["content"]
        if message["role"] != "user" or isinstance(content, str):
            out.append(message)
            continue
        blocks: list[Any] = []
        for block in content:
            if block_type(block) == "tool_result":
                blocks.append({**dict(block), "content": _clip(result_text(block), locale)})
            else:
                blocks.append(block)
        out.append({"role": "user", "content": blocks})
    return out


def summary_params(
    base: Mapping[str, Any],
    summarised: Sequence[MessageParam],
    locale: Locale,
    *,
    caching: bool,
    clip: bool = False,
) -> dict[str, Any]:
    """The summarising request built from the loop's request `base` and the part to summarise
    (which ends with a user message)."""
    summarised = marked_history(summarised, locale)  # as the loop sends them: one cached prefix
    messages = _clipped(summarised, locale) if clip else [copy.copy(m) for m in summarised]
    last = messages[-1]
    content = last["content"]
    blocks: list[Any] = [text_param(content)] if isinstance(content, str) else list(content)
    blocks.append(text_param(text("compaction.instruction", locale)))
    messages[-1] = {"role": "user", "content": blocks}
    params = dict(base)
    params["messages"] = with_cache_breakpoint(messages) if caching else messages
    params["max_tokens"] = min(int(base.get("max_tokens", SUMMARY_MAX_TOKENS)), SUMMARY_MAX_TOKENS)
    params["tool_choice"] = {"type": "none"}
    return params


def summary_of(message: Message) -> str | None:
    """The summary a reply gives, or None when it is not one (cut off, empty, a tool call)."""
    if message.stop_reason not in ("end_turn", "stop_sequence"):
        return None
    parts = [b.text for b in message.content if b.type == "text"]
    summary = "\n".join(p.strip() for p in parts if p.strip())
    return summary or None
