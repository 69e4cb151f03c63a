"""A run's story as ACP `session/update`s: text, notices, tool calls and the meter.

- a model text delta is an `agent_message_chunk`, as it arrives;
- a notice (the sandbox in force, a limit, a retry, an interruption, what was not connected)
  is an `agent_message_chunk` too, marked as such: its own paragraph, quoted (`> `), and
  `_meta.kesi.notice` naming its kind, so a client that knows may show it differently and one
  that does not still shows it apart from the model's words;
- a tool is a `tool_call` when it starts and a `tool_call_update` when it ends (its one-line
  summary, and the `diff` an edit landed);
- a tool whose input is still arriving (a long `write_file`, Day 17) opens its card as
  `pending` and updates its title with how much has come (`Write rates.py · 12 KB so far`);
- each round's usage is a `usage_update`: tokens in the context against the model's window,
  and the session's cost so far; `_meta.kesi.bill` is the seed's bill line (Day 18).

Each update of an event also carries the story's own lines for it (`_meta.kesi.lines`, the core's
`EventLines`: the lines an LSP client logs and `kesi/stream` carries, issue 25), so a client
that shows KeSi's words reads the same story as every editor; a call's in-place progress line is
`_meta.kesi.line`.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

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
from kesi_lsp.core import (
    ToolFinished,
    ToolInputProgress,
    ToolStarted,
    UsageReported,
    bill_line,
    input_so_far,
)

NOTICE_META: Final = "kesi"
Update = TypeVar("Update", AgentMessageChunk, ToolCallStart, ToolCallProgress, UsageUpdate)


def told(update: Update, lines: list[str], **more: Any) -> Update:
    """`update` carrying the story's `lines` for its event (and `more`) in `_meta.kesi`."""
    meta = dict(update.field_meta or {})
    kesi = {**meta.get(NOTICE_META, {}), "lines": lines, **more}
    return update.model_copy(update={"field_meta": {**meta, NOTICE_META: kesi}})


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


def input_arriving(
    call: Call, event: ToolInputProgress, first: bool, line: str, locale: Locale
) -> ToolCallStart | ToolCallProgress:
    """A call whose input is still arriving: its card, `pending`, titled with what it will do
    and how much of its input has come; the first report opens it, the later ones update it.
    `line` is the story's in-place line for it (`_meta.kesi.line`; no lines of the log)."""
    said = f"{title(event.name, event.input, locale)} · {input_so_far(event.received, locale)}"
    more = {"line": line, "received": event.received}
    if first:
        kind = KINDS.get(event.name, "other")
        return told(start_tool_call(call.id, said, kind=kind, status="pending"), [], **more)
    return told(update_tool_call(call.id, title=said), [], **more)


def tool_running(
    session: AcpSession, call: Call, event: ToolStarted, locale: Locale
) -> ToolCallProgress:
    """`tool_started` for a card opened while its input arrived: the same fields, as an update."""
    return update_tool_call(
        call.id,
        title=title(event.name, event.input, locale),
        kind=KINDS.get(event.name, "other"),
        status="in_progress",
        locations=locations(session, event.name, event.input),
        raw_input=dict(event.input),
    )


def tool_finished(
    call: Call,
    event: ToolFinished,
    diff: FileEditToolCallContent | None,
    trail: list[str] | None = None,
) -> ToolCallProgress:
    """The card's end: completed or failed, its summary, the diff an edit landed, and what a
    sub-agent did inside it (`trail`: its lines)."""
    content: list[ContentToolCallContent | FileEditToolCallContent] = []
    if diff is not None and not event.is_error:
        content.append(diff)
    if trail:
        content.append(tool_content(text_block("\n".join(trail))))
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


def sub_agent(call_id: str, trail: list[str]) -> ToolCallProgress:
    """What a sub-agent (the search) did so far inside a call: its lines, as the card's content."""
    return update_tool_call(call_id, content=[tool_content(text_block("\n".join(trail)))])


def same_card(call_id: str) -> ToolCallProgress:
    """An update that changes nothing on the card (it carries the story's lines of an event
    about it, such as the edit it landed)."""
    return update_tool_call(call_id)


def tool_diff(call_id: str, diff: FileEditToolCallContent) -> ToolCallProgress:
    """A card's diff, as soon as the edit is checked (the review shows the same one)."""
    return update_tool_call(call_id, content=[diff])
