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
)

JsonObject = dict[str, object]


def plan_json(run_id: str, plan: Plan) -> JsonObject:
    """The `kesi/plan` params (design §2.10): the whole plan, in order."""
    items = [{"content": item.content, "status": item.status} for item in plan]
    return {"runId": run_id, "items": items}


def verdict_json(verdict: Verdict | None) -> JsonObject | None:
    """`kesi/runFinished.verified`; None when the run changed and checked nothing."""
    if verdict is None:
        return None
    return {"status": verdict.status, "by": verdict.by, "detail": verdict.detail}


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
    """The `kesi/stream` params for `event`, or None when the event has no stream form."""
    body: JsonObject
    match event:
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
        case UsageReported(request=request, run=run, session=session):
            body = {
                "kind": "usage",
                "request": usage_json(request),
                "run": usage_json(run),
                "session": usage_json(session),
            }
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


def usage_line(run: Usage, session: Usage, locale: Locale) -> str:
    """The seed's per-turn bill (Day 18): requests, tokens, cost, and the session total."""
    return text(
        "lsp.log.usage",
        locale,
        requests=run.requests,
        input=f"{run.input_tokens:,}",
        output=f"{run.output_tokens:,}",
        cost=f"{run.cost_usd:.4f}",
        total=f"{session.cost_usd:.4f}",
    )


@dataclass
class LogStory:
    """Whole lines of a run for `window/logMessage`: model text is held until its line ends."""

    locale: Locale
    _pending: str = ""
    _at_block_start: bool = True
    _lines: list[str] = field(default_factory=list)

    def feed(self, event: Event) -> list[str]:
        """Lines that are complete after `event` (possibly none)."""
        match event:
            case TextDelta(text=delta):
                self._add_text(delta)
            case ToolStarted(name=name, input=tool_input):
                self._flush()
                self._lines.append(
                    text("lsp.log.tool", self.locale, tool=name, input=brief_input(tool_input))
                )
            case ToolFinished(is_error=is_error, summary=summary):
                key = "lsp.log.tool_error" if is_error else "lsp.log.tool_done"
                self._lines.append(text(key, self.locale, summary=summary))
            case Notice(text=notice_text):
                self._flush()
                self._lines.append(text("lsp.log.notice", self.locale, text=notice_text))
            case EditApplied(rel=rel, diff=diff):
                self._flush()
                self._lines.append(text("lsp.log.edit", self.locale, path=rel))
                self._lines.extend("    " + line for line in diff.splitlines())
            case RunFinished():
                self._flush()
        out, self._lines = self._lines, []
        return out

    def _add_text(self, delta: str) -> None:
        self._pending += delta
        *complete, self._pending = self._pending.split("\n")
        for line in complete:
            self._emit_text(line)

    def _emit_text(self, line: str) -> None:
        prefix = text("lsp.log.kesi", self.locale) if self._at_block_start else ""
        self._at_block_start = False
        self._lines.append(prefix + line)

    def _flush(self) -> None:
        if self._pending:
            self._emit_text(self._pending)
            self._pending = ""
        self._at_block_start = True
