"""`kesi/stream` (design §2.5): one notification per event of a run, `{runId, kind, ...}`.

Every event but `text` carries the server's rendered lines (issue 25), so a client shows them
as they are: `line`, the event's line as `window/logMessage` shows it (`""` when the log shows
nothing for it), and `lines`, every log line of it in order (an edit's diff, a search's
sub-total after its call's result). A sub-agent's event also names the call it works for, and
its lines come indented under that call, four spaces per `depth`.
"""

from __future__ import annotations

from typing import Any, Literal

from attrs import field, frozen

from kesi_lsp.lsp.contract.shape import ABSENT


@frozen(kw_only=True)
class Usage:
    """Token counts and price, as `usage` events, `kesi/runFinished` and `kesi.cost` carry them;
    `partial`: a request cut short by a cancel was counted only up to the interruption."""

    requests: int
    input_tokens: int
    output_tokens: int
    cache_read_tokens: int
    cache_write_tokens: int
    cost_usd: float
    partial: bool


@frozen(kw_only=True)
class Nesting:
    """A sub-agent's event (the search agent inside a tool call): the call it works for
    (`parentToolUseId`), the agent, and how deep (1 = directly under a call of the run). All
    three are absent on the run's own events."""

    parent_tool_use_id: str | None = field(default=None, metadata=ABSENT)
    agent: str | None = field(default=None, metadata=ABSENT)
    depth: int | None = field(default=None, metadata=ABSENT)


@frozen(kw_only=True)
class TextEvent(Nesting):
    """A delta of the model's text, exactly as it streams (no line of its own)."""

    run_id: str
    kind: Literal["text"] = "text"
    text: str


@frozen(kw_only=True)
class ToolStartEvent(Nesting):
    """A tool call began: `detail` is what a reader follows it by (`LIMIT in config.py`, ""
    when there is none), for a client that shows it apart from the tool's name."""

    run_id: str
    kind: Literal["toolStart"] = "toolStart"
    tool_use_id: str
    tool: str
    input: dict[str, Any]
    line: str
    lines: list[str]
    detail: str


@frozen(kw_only=True)
class ToolInputEvent(Nesting):
    """A tool call's input is still arriving (Day 17), reported a few times as it grows, not
    per chunk. `line` is the server's progress line (`  [tool] write_file: shop/rates.py ·
    12 KB so far`), which a client shows in place: each `toolInput` of the call replaces the
    last, and the call's `toolStart` (which carries the whole input) replaces it in turn.
    `lines` is empty: the log shows none of them. `received` counts the input's bytes so far;
    `detail` what the line shows of it ("" until a path or command is whole)."""

    run_id: str
    kind: Literal["toolInput"] = "toolInput"
    tool_use_id: str
    tool: str
    received: int
    detail: str
    line: str
    lines: list[str]


@frozen(kw_only=True)
class ToolEndEvent(Nesting):
    """A tool call produced its result; `summary` is its one-line digest."""

    run_id: str
    kind: Literal["toolEnd"] = "toolEnd"
    tool_use_id: str
    tool: str
    is_error: bool
    summary: str
    line: str
    lines: list[str]


@frozen(kw_only=True)
class NoticeEvent(Nesting):
    """Something to know that is not model text; `notice` says which (limits, interruption,
    retries, `workspace` and `sandbox` at start, `info`, `compaction`, `resume`,
    `instructions`...)."""

    run_id: str
    kind: Literal["notice"] = "notice"
    notice: str
    text: str
    line: str
    lines: list[str]


Purpose = Literal["turn", "compaction", "search"]


@frozen(kw_only=True)
class UsageEvent(Nesting):
    """A request ended: its usage, the run's and the session's totals; `purpose` says why it
    was made, and a search's event its running `subtotal` (absent otherwise)."""

    run_id: str
    kind: Literal["usage"] = "usage"
    purpose: Purpose
    request: Usage
    run: Usage
    session: Usage
    subtotal: Usage | None = field(default=None, metadata=ABSENT)
    line: str
    lines: list[str]


@frozen(kw_only=True)
class EditEvent(Nesting):
    """An edit reached the workspace (disk and buffer agree); `diff` is its unified diff."""

    run_id: str
    kind: Literal["edit"] = "edit"
    tool: str
    path: str
    diff: str
    line: str
    lines: list[str]


@frozen(kw_only=True)
class TurnEvent(Nesting):
    """A model round trip began; `label` says it in words (`turn 2 of at most 20`) for a
    tooltip: the user-facing progress is the plan's step, not the round trip (issue 32).
    A sub-agent's turn also has `nested_label`, the same words naming its agent (`search
    agent: turn 2 of at most 10`), which a status text shows beside the run's own step, so
    no client has to make up the agent's name; absent on the run's own turns."""

    run_id: str
    kind: Literal["turn"] = "turn"
    turn: int
    max_turns: int
    label: str
    line: str
    lines: list[str]
    nested_label: str | None = field(default=None, metadata=ABSENT)


StreamEvent = (
    TextEvent
    | ToolInputEvent
    | ToolStartEvent
    | ToolEndEvent
    | NoticeEvent
    | UsageEvent
    | EditEvent
    | TurnEvent
)
STREAM_EVENTS: tuple[type[Nesting], ...] = (
    TextEvent,
    ToolInputEvent,
    ToolStartEvent,
    ToolEndEvent,
    NoticeEvent,
    UsageEvent,
    EditEvent,
    TurnEvent,
)
"""Every kind of `kesi/stream` event; a new kind is added here and to `StreamEvent`."""
