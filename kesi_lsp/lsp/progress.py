"""Work-done progress for a run: "step 2 of 3: Fix the sign · run_command: pytest -q · $0.0123"
(§2.5). The user follows the plan's steps; model round trips ("turn 2 of at most 20") are
KeSi's bookkeeping and stay in tooltips (the `turn` event's `label`), issue 32.

The progress is server-initiated (the command has already answered with its runId) and
cancellable, so VS Code shows a Cancel button that sends `window/workDoneProgress/cancel`.
Text formatting is pure; `RunProgress` only sends what the formatter says.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    PLAN_TOOL,
    Event,
    Nested,
    PlanUpdated,
    RunStatus,
    ToolFinished,
    ToolStarted,
    TurnStarted,
    UsageReported,
    Verdict,
    step_label,
    tool_detail,
)
from kesi_lsp.lsp.wire import Wire

log = logging.getLogger(__name__)

CREATE_SECONDS = 10.0
_MAX_LABEL = 60


def tool_label(name: str, tool_input: Mapping[str, object], locale: Locale) -> str:
    """`run_command: pytest -q`: the tool and its detail (the log's and the stream's own,
    `render.tool_detail`), kept short."""
    detail = " ".join(tool_detail(tool_input, locale).split())
    if len(detail) > _MAX_LABEL:
        detail = detail[: _MAX_LABEL - 1] + "…"
    return f"{name}: {detail}" if detail else name


@dataclass
class ProgressState:
    """What the progress line shows; updated from events."""

    locale: Locale
    turn: int = 0
    max_turns: int = 0
    step: str = ""
    tools: dict[str, str] = field(default_factory=dict)  # running calls, by id, in order
    subtool: str = ""  # what a search sub-agent is doing inside a running call
    cost_usd: float = 0.0

    @property
    def tool(self) -> str:
        """The first running call (several reads run at once: "read_file: a.py (+2)")."""
        if not self.tools:
            return ""
        first = next(iter(self.tools.values()))
        more = len(self.tools) - 1
        return f"{first} (+{more})" if more else first

    def update(self, event: Event) -> bool:
        """Apply `event`; True when the visible message changed."""
        match event:
            case Nested(event=ToolStarted(name=name, input=tool_input)):
                self.subtool = tool_label(name, tool_input, self.locale)
            case Nested(event=UsageReported(run=run)):
                self.cost_usd = run.cost_usd
            case Nested():
                return False
            case TurnStarted(turn=turn, max_turns=max_turns):
                self.turn, self.max_turns = turn, max_turns
                self.tools.clear()
                self.subtool = ""
            case ToolStarted(name=name) if name == PLAN_TOOL:  # the step says it
                return False
            case ToolStarted(tool_use_id=use_id, name=name, input=tool_input):
                self.tools[use_id] = tool_label(name, tool_input, self.locale)
                self.subtool = ""
            case ToolFinished(tool_use_id=use_id):
                self.tools.pop(use_id, None)
                self.subtool = ""
            case PlanUpdated(plan=plan):
                self.step = step_label(plan, self.locale) or ""
            case UsageReported(run=run):
                self.cost_usd = run.cost_usd
            case _:
                return False
        return True

    def message(self) -> str:
        if self.step:
            parts = [self.step]
        else:
            key = "lsp.progress.working" if self.turn else "lsp.progress.starting"
            parts = [text(key, self.locale)]
        if self.tool:
            parts.append(self.tool)
        if self.subtool:
            parts.append(text("lsp.progress.search", self.locale, tool=self.subtool))
        if self.cost_usd:
            parts.append(f"${self.cost_usd:.4f}")
        return " · ".join(parts)


def end_message(
    status: RunStatus,
    edits: int,
    cost_usd: float,
    locale: Locale,
    verified: Verdict | None = None,
) -> str:
    """The one-line summary the progress ends with: status, verification, edits, cost."""
    parts = [text(f"lsp.status.{status}", locale)]
    if verified is not None:
        parts.append(text(f"verify.status.{verified.status}", locale))
    parts += [text("lsp.progress.edits", locale, count=edits), f"${cost_usd:.4f}"]
    return " · ".join(parts)


class RunProgress:
    """The progress bar of one run; silent when the client has no work-done progress.

    The run never waits for the client's answer to `window/workDoneProgress/create`: lsp-mode
    loses that request now and then, and a run held for it showed nothing for 10 s. The
    request goes out, the run starts at once, and the bar begins (with what the run is
    doing by then) when, and if, the answer comes before the run ends."""

    def __init__(self, wire: Wire, token: str, state: ProgressState) -> None:
        self._wire = wire
        self.token = token
        self.state = state
        self._started = False
        self._ended = False
        self._last = ""
        self._create: asyncio.Task[None] | None = None

    async def begin(self, supported: bool) -> None:
        if supported:
            self._create = asyncio.ensure_future(self._created())

    async def _created(self) -> None:
        create = self._wire.request(
            types.WINDOW_WORK_DONE_PROGRESS_CREATE,
            types.WorkDoneProgressCreateParams(token=self.token),
        )
        try:
            await asyncio.wait_for(create, CREATE_SECONDS)
        except asyncio.CancelledError:  # the run ended first
            return
        except Exception as exc:  # refused or unanswered: run without a progress bar
            log.info("client refused progress token: %s", exc)
            return
        if self._ended:
            return
        self._started = True
        self._last = self.state.message()
        self._send(types.WorkDoneProgressBegin(title="KeSi", cancellable=True, message=self._last))

    def update(self, event: Event) -> None:
        if self.state.update(event) and self._started:
            message = self.state.message()
            if message != self._last:
                self._last = message
                self._send(types.WorkDoneProgressReport(cancellable=True, message=message))

    def end(self, message: str) -> None:
        self._ended = True
        if self._create is not None and not self._create.done():
            self._create.cancel()
        if self._started:
            self._started = False
            self._send(types.WorkDoneProgressEnd(message=message))

    def _send(
        self,
        value: types.WorkDoneProgressBegin
        | types.WorkDoneProgressReport
        | types.WorkDoneProgressEnd,
    ) -> None:
        self._wire.notify(types.PROGRESS, types.ProgressParams(token=self.token, value=value))
