"""A run's story as ACP `session/update`s: text, notices, tool calls and the meter.

- a model text delta is an `agent_message_chunk`, as it arrives;
- a notice (the sandbox in force, a limit, a retry, an interruption, what was not connected)
  is an `agent_message_chunk` too, marked as such: its own paragraph, quoted (`> `), and
  `_meta.kesi.notice` naming its kind, so a client that knows may show it differently and one
  that does not still shows it apart from the model's words;
- a tool is a `tool_call` when it starts and a `tool_call_update` when it ends (its one-line
  summary, and the `diff` an edit landed);
- each round's usage is a `usage_update`: tokens in the context against the model's window,
  and the session's cost so far; `_meta.kesi.bill` is the seed's bill line (Day 18).
"""

from __future__ import annotations

from typing import Final

from acp.helpers import start_tool_call, text_block, tool_content, update_tool_call
from acp.schema import (
    AgentMessageChunk,
    ContentToolCallContent,
    Cost,
    FileEditToolCallContent,
    ToolCallProgress,
    ToolCallStart,
    ToolCallStatus,
    UsageUpdate,
)

from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.acp.tool_calls import KINDS, Call, locations, title
from kesi_lsp.catalog import Locale
from kesi_lsp.core import ToolFinished, ToolStarted, UsageReported, bill_line

NOTICE_META: Final = "kesi"


def quoted(said: str) -> str:
    """`said` as a Markdown quote, one `> ` per line."""
    return "\n".join(f"> {line}" if line else ">" for line in said.splitlines() or [""])


class Paragraphs:
    """Where the run's text stands, so a notice starts a paragraph of its own."""

    def __init__(self) -> None:
        self._tail = ""

    def said(self, delta: str) -> None:
        self._tail = (self._tail + delta)[-2:]

    def opening(self) -> str:
        """What a notice needs in front of it to start a paragraph."""
        if not self._tail or self._tail.endswith("\n\n"):
            return ""
        return "\n" if self._tail.endswith("\n") else "\n\n"


def message_chunk(delta: str) -> AgentMessageChunk:
    return AgentMessageChunk(session_update="agent_message_chunk", content=text_block(delta))


def notice_chunk(kind: str, said: str, paragraphs: Paragraphs) -> AgentMessageChunk:
    """A notice as its own quoted paragraph, marked `_meta.kesi.notice = kind`."""
    body = paragraphs.opening() + quoted(said) + "\n\n"
    paragraphs.said(body)
    return AgentMessageChunk(
        session_update="agent_message_chunk",
        content=text_block(body),
        field_meta={NOTICE_META: {"notice": kind}},
    )


def tool_started(
    session: AcpSession, call: Call, event: ToolStarted, locale: Locale
) -> ToolCallStart:
    """The card of a tool that starts running now (the gate may still ask: then `pending`)."""
    return start_tool_call(
        call.id,
        title(event.name, event.input, locale),
        kind=KINDS.get(event.name, "other"),
        status="in_progress",
        locations=locations(session, event.name, event.input),
        raw_input=dict(event.input),
    )


def tool_finished(
    call: Call, event: ToolFinished, diff: FileEditToolCallContent | None
) -> ToolCallProgress:
    """The card's end: completed or failed, its summary, and the diff an edit landed."""
    content: list[ContentToolCallContent | FileEditToolCallContent] = []
    if diff is not None and not event.is_error:
        content.append(diff)
    if event.summary:
        content.append(tool_content(text_block(event.summary)))
    return update_tool_call(
        call.id,
        status="failed" if event.is_error else "completed",
        content=content,
        raw_output={"summary": event.summary, "isError": event.is_error},
    )


def usage(event: UsageReported, window: int, locale: Locale) -> UsageUpdate:
    """The meter after a round: the context this request filled out of the model's `window`,
    and the session's cost."""
    request = event.request
    used = (
        request.input_tokens
        + request.cache_read_tokens
        + request.cache_write_tokens
        + request.output_tokens
    )
    return UsageUpdate(
        session_update="usage_update",
        used=used,
        size=window,
        cost=Cost(amount=round(event.session.cost_usd, 6), currency="USD"),
        field_meta={
            NOTICE_META: {
                "bill": bill_line(event.run, event.session, locale),
                "requests": event.run.requests,
                "runCostUsd": round(event.run.cost_usd, 6),
            }
        },
    )


def tool_status(call_id: str, status: ToolCallStatus) -> ToolCallProgress:
    """A card's new status alone (the question was answered yes: the tool runs on)."""
    return update_tool_call(call_id, status=status)


def tool_diff(call_id: str, diff: FileEditToolCallContent) -> ToolCallProgress:
    """A card's diff, as soon as the edit is checked (the review shows the same one)."""
    return update_tool_call(call_id, content=[diff])
