"""Core events as wire payloads: `kesi/stream` for clients that announce it, whole log lines
for everyone else (design §2.5). Pure functions, so the mapping is testable without a client.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import attrs

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    EditApplied,
    Event,
    EventLines,
    Nested,
    Notice,
    Plan,
    RunFinished,
    TextDelta,
    ToolFinished,
    ToolInputProgress,
    ToolStarted,
    TurnStarted,
    Usage,
    UsageReported,
    Verdict,
    bill_line,
    nested_line,
    plan_current,
    plan_item_lines,
    plan_title,
    progress_line,
    tool_detail,
)
from kesi_lsp.lsp import contract


def plan_params(run_id: str, plan: Plan, locale: Locale) -> contract.PlanParams:
    """The `kesi/plan` params (design §2.10): the whole plan, in order, and as the server
    renders it: `title` (`Plan: 1 of 4 done`), `lines` (one per item, its status mark first:
    `✓ Read calc.py`) and `current` (`step 2 of 4: Fix the sign`, null when no step is in
    progress), in the session's locale."""
    return contract.PlanParams(
        run_id=run_id,
        items=[contract.PlanItem(content=item.content, status=item.status) for item in plan],
        title=plan_title(plan, locale),
        lines=plan_item_lines(plan),
        current=plan_current(plan, locale),
    )


def verdict_view(verdict: Verdict | None, locale: Locale) -> contract.VerdictView | None:
    """`kesi/runFinished.verified`, with the status in the session's words (`text`); None when
    the run changed and checked nothing."""
    if verdict is None:
        return None
    key = "before_undo" if verdict.before_undo else verdict.status  # after an undo, issue 32
    status = text(f"verify.status.{key}", locale)
    return contract.VerdictView(
        status=verdict.status, text=status, by=verdict.by, detail=verdict.detail
    )


def usage_view(usage: Usage) -> contract.Usage:
    """The usage/cost object shared by `kesi/stream` usage, `kesi/runFinished` and `kesi.cost`."""
    return contract.Usage(
        requests=usage.requests,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cache_read_tokens=usage.cache_read_tokens,
        cache_write_tokens=usage.cache_write_tokens,
        cost_usd=round(usage.cost_usd, 6),
        partial=usage.partial,
    )


def _own_event(
    run_id: str, event: Event, lines: list[str], locale: Locale
) -> contract.StreamEvent | None:
    """The stream form of a run's own event (a sub-agent's once unwrapped)."""
    line = lines[0] if lines else ""
    match event:
        case TextDelta(text=delta):
            return contract.TextEvent(run_id=run_id, text=delta)
        case ToolInputProgress(tool_use_id=use_id, name=name, received=received):
            return contract.ToolInputEvent(
                run_id=run_id,
                tool_use_id=use_id,
                tool=name,
                received=received,
                detail=tool_detail(event.input, locale, whole=False),
                line=line,
                lines=lines,
            )
        case ToolStarted(tool_use_id=use_id, name=name, input=tool_input):
            return contract.ToolStartEvent(
                run_id=run_id,
                tool_use_id=use_id,
                tool=name,
                input=dict(tool_input),
                line=line,
                lines=lines,
                detail=tool_detail(tool_input, locale),
            )
        case ToolFinished(tool_use_id=use_id, name=name, is_error=is_error, summary=summary):
            return contract.ToolEndEvent(
                run_id=run_id,
                tool_use_id=use_id,
                tool=name,
                is_error=is_error,
                summary=summary,
                line=line,
                lines=lines,
            )
        case Notice(kind=kind, text=notice_text):
            return contract.NoticeEvent(
                run_id=run_id, notice=kind, text=notice_text, line=line, lines=lines
            )
        case UsageReported(request=request, run=run, session=session, purpose=purpose):
            subtotal = event.subtotal
            return contract.UsageEvent(
                run_id=run_id,
                purpose=purpose,
                request=usage_view(request),
                run=usage_view(run),
                session=usage_view(session),
                subtotal=usage_view(subtotal) if subtotal is not None else None,
                line=line,
                lines=lines,
            )
        case EditApplied(tool=tool, rel=rel, diff=diff):
            return contract.EditEvent(
                run_id=run_id, tool=tool, path=rel, diff=diff, line=line, lines=lines
            )
        case TurnStarted(turn=turn, max_turns=max_turns):
            return contract.TurnEvent(
                run_id=run_id,
                turn=turn,
                max_turns=max_turns,
                label=text("lsp.progress.turn", locale, turn=turn, max=max_turns),
                line=line,
                lines=lines,
            )
    return None


_AGENT_TURNS = {"search": "lsp.progress.search_turn"}
"""The catalog's words for a sub-agent's turn, by the agent's name (`Nested.agent`)."""


def stream_event(
    run_id: str, event: Event, lines: list[str], locale: Locale
) -> contract.StreamEvent | None:
    """The `kesi/stream` params for `event` with its rendered `lines`, or None when the event
    has no stream form.

    A sub-agent's event has the same form as a top-level one, plus `parentToolUseId` (the
    tool call it works for), `agent` and `depth`, so a client can indent it under that call.
    """
    parent: str | None = None
    agent: str | None = None
    depth, inner = 0, event
    while isinstance(inner, Nested):
        if parent is None:
            parent, agent = inner.parent, inner.agent
        depth, inner = depth + 1, inner.event
    own = _own_event(run_id, inner, lines, locale)
    if isinstance(own, contract.ToolInputEvent):  # its line is shown in place, never logged
        own = attrs.evolve(own, line=progress_line(event, locale) or "")
    if own is None or not depth:
        return own
    if isinstance(own, contract.TurnEvent) and agent in _AGENT_TURNS:
        words = text(_AGENT_TURNS[agent], locale, turn=own.turn, max=own.max_turns)
        own = attrs.evolve(own, nested_label=words)
    return attrs.evolve(own, parent_tool_use_id=parent, agent=agent, depth=depth)


@dataclass
class StreamPayloads:
    """One run's `kesi/stream` params, each carrying the log's own lines for it.

    Every event but `text` gets `line` (its first line as the log shows it, "" when the log
    shows nothing for it: a new turn, a round's usage, a search's running sub-total) and
    `lines` (every log line of it, in order: an edit's diff lines, a search's sub-total after
    its call's result). A `toolStart` also gets `detail` (`LIMIT in config.py`, "" when there
    is none) for a client that shows it apart from the tool's name. A sub-agent's lines are
    already indented under its call, as the log indents them (`depth` says how deep).
    """

    run_id: str
    locale: Locale
    _lines: EventLines = field(init=False)

    def __post_init__(self) -> None:
        self._lines = EventLines(self.locale)

    def payload(self, event: Event) -> contract.StreamEvent | None:
        return stream_event(self.run_id, event, self._lines.lines(event), self.locale)


def bill(run: Usage, session: Usage, locale: Locale) -> str | None:
    """The seed's bill after a run (Day 18), or None when the run made no request: the seed
    prints it only "這一輪有收到 usage 才印" (a run that never reached the model has no bill)."""
    return bill_line(run, session, locale) if run.requests else None


@dataclass
class _Text:
    """Model text of one speaker (the run, or a sub-agent inside a call), held until its line
    ends."""

    prefix: str  # "KeSi > " at the start of each block of the run's own text
    depth: int
    pending: str = ""
    at_block_start: bool = True


@dataclass
class LogStory:
    """Whole lines of a run for `window/logMessage`: model text is held until its line ends.

    Every other event's lines are `EventLines`' (the lines `kesi/stream` carries too). A
    sub-agent's text is indented under the tool call that started it, and what it left
    unfinished is said before that call's result.
    """

    locale: Locale
    _events: EventLines = field(init=False)
    _texts: dict[tuple[str, ...], _Text] = field(default_factory=dict)
    _lines: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._events = EventLines(self.locale)

    def feed(self, event: Event) -> list[str]:
        """Lines that are complete after `event` (possibly none)."""
        chain, inner = self._chain(event)
        if isinstance(inner, RunFinished):
            self._close_under(())
        elif isinstance(inner, TextDelta):
            for cut in range(len(chain)):  # the speakers it is nested under stop mid-line
                self._flush(chain[:cut])
            self._add_text(chain, inner.text)
        else:
            for cut in range(len(chain) + 1):
                self._flush(chain[:cut])
            if isinstance(inner, ToolFinished):  # the sub-agent of this call is done
                self._close_under((*chain, inner.tool_use_id))
            self._lines.extend(self._events.lines(event))
        out, self._lines = self._lines, []
        return out

    @staticmethod
    def _chain(event: Event) -> tuple[tuple[str, ...], Event]:
        chain: list[str] = []
        while isinstance(event, Nested):
            chain.append(event.parent)
            event = event.event
        return tuple(chain), event

    def _speaker(self, chain: tuple[str, ...]) -> _Text:
        if chain not in self._texts:
            prefix = "" if chain else text("lsp.log.kesi", self.locale)
            self._texts[chain] = _Text(prefix, len(chain))
        return self._texts[chain]

    def _add_text(self, chain: tuple[str, ...], delta: str) -> None:
        speaker = self._speaker(chain)
        speaker.pending += delta
        *complete, speaker.pending = speaker.pending.split("\n")
        for line in complete:
            self._emit(speaker, line)

    def _emit(self, speaker: _Text, line: str) -> None:
        shown = (speaker.prefix if speaker.at_block_start else "") + line
        speaker.at_block_start = False
        for _ in range(speaker.depth):
            shown = nested_line(shown, self.locale)
        self._lines.append(shown)

    def _flush(self, chain: tuple[str, ...]) -> None:
        speaker = self._texts.get(chain)
        if speaker is None:
            return
        if speaker.pending:
            self._emit(speaker, speaker.pending)
            speaker.pending = ""
        speaker.at_block_start = True

    def _close_under(self, chain: tuple[str, ...]) -> None:
        """Say what the speakers at and under `chain` left unfinished, the deepest first."""
        under = [key for key in self._texts if key[: len(chain)] == chain]
        for key in sorted(under, key=len, reverse=True):
            self._flush(key)
            if key:
                del self._texts[key]
