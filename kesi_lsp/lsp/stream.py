"""Core events as wire payloads: `kesi/stream` for clients that announce it, whole log lines
for everyone else (design §2.5). Pure functions, so the mapping is testable without a client.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    EditApplied,
    Event,
    Nested,
    Notice,
    Plan,
    RunFinished,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnStarted,
    Usage,
    UsageReported,
    Verdict,
    bill_line,
)

JsonObject = dict[str, object]

STARTUP_NOTICES = frozenset({"workspace", "sandbox"})
"""Notices the seed prints at start as lines of their own (Day 15: `  工作目錄：…`,
`  指令沙箱：…`), not in the parentheses of a notice."""


def plan_json(run_id: str, plan: Plan) -> JsonObject:
    """The `kesi/plan` params (design §2.10): the whole plan, in order."""
    items = [{"content": item.content, "status": item.status} for item in plan]
    return {"runId": run_id, "items": items}


def verdict_json(verdict: Verdict | None, locale: Locale) -> JsonObject | None:
    """`kesi/runFinished.verified`, with the status in the session's words (`text`); None when
    the run changed and checked nothing."""
    if verdict is None:
        return None
    return {
        "status": verdict.status,
        "text": text(f"verify.status.{verdict.status}", locale),
        "by": verdict.by,
        "detail": verdict.detail,
    }


def usage_json(usage: Usage) -> JsonObject:
    """The usage/cost object shared by `kesi/stream` usage, `kesi/runFinished` and `kesi.cost`."""
    return {
        "requests": usage.requests,
        "inputTokens": usage.input_tokens,
        "outputTokens": usage.output_tokens,
        "cacheReadTokens": usage.cache_read_tokens,
        "cacheWriteTokens": usage.cache_write_tokens,
        "costUsd": round(usage.cost_usd, 6),
        "partial": usage.partial,
    }


def stream_payload(run_id: str, event: Event) -> JsonObject | None:
    """The `kesi/stream` params for `event`, or None when the event has no stream form.

    A sub-agent's event has the same form as a top-level one, plus `parentToolUseId` (the
    tool call it works for), `agent` and `depth`, so a client can indent it under that call.
    """
    body: JsonObject
    match event:
        case Nested(parent=parent, agent=agent, event=inner):
            nested = stream_payload(run_id, inner)
            if nested is None:
                return None
            depth = nested.get("depth", 0)
            depth = depth + 1 if isinstance(depth, int) else 1
            return {**nested, "parentToolUseId": parent, "agent": agent, "depth": depth}
        case TextDelta(text=delta):
            body = {"kind": "text", "text": delta}
        case ToolStarted(tool_use_id=use_id, name=name, input=tool_input):
            body = {"kind": "toolStart", "toolUseId": use_id, "tool": name, "input": tool_input}
        case ToolFinished(tool_use_id=use_id, name=name, is_error=is_error, summary=summary):
            body = {
                "kind": "toolEnd",
                "toolUseId": use_id,
                "tool": name,
                "isError": is_error,
                "summary": summary,
            }
        case Notice(kind=kind, text=notice_text):
            body = {"kind": "notice", "notice": kind, "text": notice_text}
        case UsageReported(
            request=request, run=run, session=session, purpose=purpose, subtotal=subtotal
        ):
            body = {
                "kind": "usage",
                "purpose": purpose,
                "request": usage_json(request),
                "run": usage_json(run),
                "session": usage_json(session),
            }
            if subtotal is not None:
                body["subtotal"] = usage_json(subtotal)
        case EditApplied(tool=tool, rel=rel, diff=diff):
            body = {"kind": "edit", "tool": tool, "path": rel, "diff": diff}
        case TurnStarted(turn=turn, max_turns=max_turns):
            body = {"kind": "turn", "turn": turn, "maxTurns": max_turns}
        case _:
            return None
    return {"runId": run_id, **body}


def brief_input(tool_input: object, limit: int = 200) -> str:
    """A tool input as one short line of JSON."""
    shown = json.dumps(tool_input, ensure_ascii=False, sort_keys=True, default=str)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def bill(run: Usage, session: Usage, locale: Locale) -> str | None:
    """The seed's bill after a run (Day 18), or None when the run made no request: the seed
    prints it only "這一輪有收到 usage 才印" (a run that never reached the model has no bill)."""
    return bill_line(run, session, locale) if run.requests else None


def part_bill_line(key: str, usage: Usage, locale: Locale) -> str:
    """One line of the bill for a summary or a search (its own line, Day 18's figures)."""
    return text(
        key,
        locale,
        requests=usage.requests,
        input=f"{usage.input_tokens:,}",
        read=f"{usage.cache_read_tokens:,}",
        write=f"{usage.cache_write_tokens:,}",
        output=f"{usage.output_tokens:,}",
        cost=f"{usage.cost_usd:.4f}",
    )


@dataclass
class LogStory:
    """Whole lines of a run for `window/logMessage`: model text is held until its line ends.

    A sub-agent's lines are indented under the tool call that started it, and its bill (the
    search's sub-total) follows that call's result; a summary's request is a bill line of its
    own.
    """

    locale: Locale
    speaker: bool = True  # start each block of model text with "KeSi > "
    _pending: str = ""
    _at_block_start: bool = True
    _lines: list[str] = field(default_factory=list)
    _nested: dict[str, LogStory] = field(default_factory=dict)
    _subtotals: dict[str, Usage] = field(default_factory=dict)

    def feed(self, event: Event) -> list[str]:
        """Lines that are complete after `event` (possibly none)."""
        match event:
            case TextDelta(text=delta):
                self._add_text(delta)
            case Nested(parent=parent, event=inner):
                self._feed_nested(parent, inner)
            case ToolStarted(name=name, input=tool_input):
                self._flush()
                self._lines.append(
                    text("lsp.log.tool", self.locale, tool=name, input=brief_input(tool_input))
                )
            case ToolFinished(tool_use_id=use_id, is_error=is_error, summary=summary):
                self._end_nested(use_id)
                key = "lsp.log.tool_error" if is_error else "lsp.log.tool_done"
                self._lines.append(text(key, self.locale, summary=summary))
                if (subtotal := self._subtotals.pop(use_id, None)) is not None:
                    self._lines.append(part_bill_line("lsp.log.bill.search", subtotal, self.locale))
            case UsageReported(purpose="compaction", request=request):
                self._flush()
                self._lines.append(part_bill_line("lsp.log.bill.compaction", request, self.locale))
            case Notice(kind=kind, text=notice_text):
                self._flush()
                key = "lsp.log.startup" if kind in STARTUP_NOTICES else "lsp.log.notice"
                self._lines.append(text(key, self.locale, text=notice_text))
            case EditApplied(rel=rel, diff=diff):
                self._flush()
                self._lines.append(text("lsp.log.edit", self.locale, path=rel))
                self._lines.extend("    " + line for line in diff.splitlines())
            case RunFinished():
                for use_id in list(self._nested):
                    self._end_nested(use_id)
                self._flush()
        out, self._lines = self._lines, []
        return out

    def _feed_nested(self, parent: str, inner: Event) -> None:
        self._flush()
        story = self._nested.setdefault(parent, LogStory(self.locale, speaker=False))
        if isinstance(inner, UsageReported) and inner.subtotal is not None:
            self._subtotals[parent] = inner.subtotal
        self._indent(story.feed(inner))

    def _end_nested(self, parent: str) -> None:
        story = self._nested.pop(parent, None)
        if story is not None:
            self._indent(story.feed(RunFinished("done", "", Usage())))

    def _indent(self, lines: list[str]) -> None:
        self._lines.extend(text("lsp.log.nested", self.locale, line=line) for line in lines)

    def _add_text(self, delta: str) -> None:
        self._pending += delta
        *complete, self._pending = self._pending.split("\n")
        for line in complete:
            self._emit_text(line)

    def _emit_text(self, line: str) -> None:
        prefix = text("lsp.log.kesi", self.locale) if self._at_block_start and self.speaker else ""
        self._at_block_start = False
        self._lines.append(prefix + line)

    def _flush(self) -> None:
        if self._pending:
            self._emit_text(self._pending)
            self._pending = ""
        self._at_block_start = True
