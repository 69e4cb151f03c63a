"""What the agent reports while it works: typed, frozen events instead of prints.

The loop and the tools emit these through an `EventSink`; the LSP adapter turns them into
`kesi/stream`, `window/logMessage` and progress; the demo prints them; tests collect them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.diagnostics.editor import EditorProblem
from kesi_lsp.core.plan import Plan
from kesi_lsp.core.verification.verdict import Verdict

RunStatus = Literal["done", "cancelled", "failed", "limit"]
NoticeKind = Literal[
    "retry",
    "limit",
    "interrupted",
    "error",
    "workspace",
    "sandbox",
    "approvals",
    "info",
    "compaction",
    "resume",
    "instructions",
]
LimitKind = Literal["max_turns", "max_tokens", "context_window", "tool_failures", "repeating"]
"""Which limit a `limit` run hit: each has its own way on (a setting to raise, a reset, ...)."""


@dataclass(frozen=True)
class TurnStarted:
    """A model round-trip begins (1-based `turn` out of `max_turns`)."""

    turn: int
    max_turns: int


@dataclass(frozen=True)
class TextDelta:
    """A piece of the model's explanation, in order."""

    text: str


@dataclass(frozen=True)
class ToolStarted:
    tool_use_id: str
    name: str
    input: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolInputProgress:
    """A tool call's input is still arriving (Day 17: the seed streams text and notes that a
    tool's arguments could be shown live too).

    `received` is how many bytes of its JSON have arrived; `input` what of it parses so far (a
    string still arriving is left out, so a `file_path` shows once it is whole). Throttled by
    `kesi_lsp.core.tool_input`: a long `write_file` reports its progress a few dozen times,
    not once per chunk. The `ToolStarted` that follows carries the whole input.
    """

    tool_use_id: str
    name: str
    received: int
    input: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolFinished:
    """A tool produced its result. `summary` is a one-line digest fit for an output panel."""

    tool_use_id: str
    name: str
    is_error: bool
    summary: str


@dataclass(frozen=True)
class EditApplied:
    """A change reached the workspace (disk and buffer agree); `diff` is its unified diff."""

    tool: str
    rel: str
    diff: str


@dataclass(frozen=True)
class PlanUpdated:
    """The model replaced its plan (the todo tool): the whole list, in order."""

    plan: Plan


@dataclass(frozen=True)
class CommandFinished:
    """run_command ran `command` to its end (not refused): what verification needs to know.

    `changed` are the files open in the editor whose text on disk the command changed (POSIX,
    relative to the workspace); `summary` is the result's one line.
    """

    command: str
    exit_code: int | None
    timed_out: bool
    changed: tuple[str, ...] = ()
    summary: str = ""


@dataclass(frozen=True)
class ProblemsReported:
    """What the editor's diagnostics said once a change settled (design §2.10).

    `checked` are the files asked about; `new` the errors and warnings that appeared with this
    change; `outstanding` the errors in those files that were not there before the run first
    changed them (what verification weighs); `available` False when the editor did not answer.
    """

    checked: tuple[str, ...]
    new: tuple[EditorProblem, ...] = ()
    outstanding: tuple[EditorProblem, ...] = ()
    available: bool = True


@dataclass(frozen=True)
class Notice:
    """Something the user should know that is not model text: retries, limits, interruption."""

    kind: NoticeKind
    text: str


Purpose = Literal["turn", "compaction", "search"]
"""Why a request was made: a round of the loop, a summary of old turns, a sub-agent's search."""


@dataclass(frozen=True)
class UsageReported:
    """Usage of the request that just ended, and the running totals.

    `purpose` says which kind of request it was, so the bill can show a summary or a search as
    its own line; `subtotal` is the running total of that search's requests (`search` only).
    """

    request: Usage
    run: Usage
    session: Usage
    purpose: Purpose = "turn"
    subtotal: Usage | None = None


@dataclass(frozen=True)
class RunFinished:
    """The run is over. `text` is the final assistant text (or the stop message).

    `limit` says which limit stopped a `limit` run (None otherwise), so a front end can say how
    to go on without parsing the message. `verified` is the server's own verdict on the run's
    changes (`kesi_lsp.core.verification.tracker`), None when the run changed nothing and checked
    nothing.
    """

    status: RunStatus
    text: str
    usage: Usage
    limit: LimitKind | None = None
    verified: Verdict | None = None


@dataclass(frozen=True)
class Nested:
    """An event of a sub-agent working inside the tool call `parent` (its tool_use id).

    The search sub-agent's text, tool calls and usage reach the user this way, so a front end
    can show them indented under the call that started them.
    """

    parent: str
    agent: str
    event: Event


Event = (
    TurnStarted
    | TextDelta
    | ToolInputProgress
    | ToolStarted
    | ToolFinished
    | EditApplied
    | PlanUpdated
    | CommandFinished
    | ProblemsReported
    | Notice
    | UsageReported
    | RunFinished
    | Nested
)
EventSink = Callable[[Event], None]


def discard(event: Event) -> None:
    """An EventSink that drops everything (for callers that only want the result)."""
