"""The lines a run's story is told in, rendered once in the session's locale, for every front
end (issue 25).

A log-only LSP client reads them as `window/logMessage` lines; our own editor clients get the
very same lines inside each payload (`kesi/stream` `line`/`lines`, `kesi/plan`
`title`/`lines`/`current`, `kesi/runFinished` `line`/`lines`); an ACP client gets them in the
`_meta.kesi.lines` of each `session/update`. So no client renders a tool call, a bill or a plan
itself, and every front end tells the same story in the same words. Clients only style them.

It lives in the core, not in either adapter, because both adapters tell the story and neither
may import the other. Pure functions of core events and the catalog, so the mapping is
testable without a client.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.events import (
    EditApplied,
    Event,
    Nested,
    Notice,
    RunFinished,
    ToolFinished,
    ToolInputProgress,
    ToolStarted,
    UsageReported,
)
from kesi_lsp.core.plan import Plan, step_label

DETAIL_MAX: Final = 120
SUMMARY_MAX: Final = 400
PLAN_MARKS: Final = {"completed": "✓", "in_progress": "▶", "pending": "○"}
"""The plan's status marks (the same as `plan_line`'s, the seed's one-line plan)."""

STARTUP_NOTICES = frozenset({"workspace", "sandbox"})
"""Notices the seed prints at start as lines of their own (Day 15: `  工作目錄：…`,
`  指令沙箱：…`), not in the parentheses of a notice."""

PLAN_TOOL: Final = "todo"
"""The plan tool: its call and its result are the plan, which the plan's own line (or a client's
plan view, updated in place) shows; told again as a call and a result it read four times per
run (issue 32). Only a failed call has a line of its own."""

_COMMAND_KEYS: Final = ("command", "task")
_PATTERN_KEYS: Final = ("pattern", "query")
_PATH_KEYS: Final = ("file_path", "path")


def one_line(value: str, limit: int) -> str:
    """`value` on one line (a line break shows as ⏎), at most `limit` characters."""
    flat = " ⏎ ".join(part.strip() for part in value.strip().splitlines() if part.strip())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _first(tool_input: Mapping[str, object], keys: tuple[str, ...]) -> str | None:
    for key in keys:
        value = tool_input.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return None


def tool_detail(
    tool_input: Mapping[str, object],
    locale: Locale,
    limit: int = DETAIL_MAX,
    *,
    whole: bool = True,
) -> str:
    """The part of a tool's input a reader follows along by: the command (or a search's task),
    else the pattern and where it is looked for (`LIMIT in config.py`), else the path; "" for
    the todo tool (the plan shows itself) and for no input. An input without any of those
    shows as its JSON when it is `whole`; one still arriving shows nothing instead (its JSON so
    far is half a file's content)."""
    if isinstance(tool_input.get("items"), list):
        return ""
    shown = _first(tool_input, _COMMAND_KEYS)
    if shown is None and (pattern := _first(tool_input, _PATTERN_KEYS)) is not None:
        where = _first(tool_input, _PATH_KEYS)
        shown = text("lsp.detail.in", locale, pattern=pattern, path=where) if where else pattern
    if shown is None:
        shown = _first(tool_input, (*_PATH_KEYS, "glob"))
    if shown is None and tool_input and whole:
        shown = json.dumps(tool_input, ensure_ascii=False, sort_keys=True, default=str)
    return one_line(shown, limit) if shown else ""


def tool_line(name: str, tool_input: Mapping[str, object], locale: Locale) -> str:
    """`  [tool] grep: LIMIT in config.py` (the name alone when there is no detail)."""
    detail = tool_detail(tool_input, locale)
    if not detail:
        return text("lsp.log.tool_bare", locale, tool=name)
    return text("lsp.log.tool", locale, tool=name, detail=detail)


def size_words(size: int) -> str:
    """A byte count as a reader takes it in at a glance: `640 B`, `3.5 KB`, `12 KB`, `1.2 MB`."""
    if size < 1024:
        return f"{size} B"
    if size < 10 * 1024:
        return f"{size / 1024:.1f} KB"
    if size < 1024 * 1024:
        return f"{size // 1024} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def input_so_far(received: int, locale: Locale) -> str:
    """`12 KB so far`: how much of a tool call's input has arrived."""
    return text("story.tool_input.so_far", locale, size=size_words(received))


def tool_input_line(event: ToolInputProgress, locale: Locale) -> str:
    """`  [tool] write_file: shop/rates.py · 12 KB so far`: a call whose input is still arriving
    (Day 17), as its `tool_line` will read once the input is whole, and how much has come. A
    client shows it in place, each report replacing the last, until the call's own line
    replaces it; the log shows none of them (a log cannot replace a line)."""
    detail = tool_detail(event.input, locale, whole=False)
    so_far = input_so_far(event.received, locale)
    if not detail:
        return text("story.tool_input.bare", locale, tool=event.name, so_far=so_far)
    return text("story.tool_input", locale, tool=event.name, detail=detail, so_far=so_far)


def progress_line(event: Event, locale: Locale) -> str | None:
    """The in-place line of a `ToolInputProgress` (a sub-agent's indented under its call, as
    its other lines are), None for every other event."""
    if isinstance(event, Nested):
        inner = progress_line(event.event, locale)
        return None if inner is None else nested_line(inner, locale)
    return tool_input_line(event, locale) if isinstance(event, ToolInputProgress) else None


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


def nested_line(line: str, locale: Locale) -> str:
    """A sub-agent's line, indented one level under the call it works for."""
    return text("lsp.log.nested", locale, line=line)


@dataclass
class EventLines:
    """The log's lines for every event but model text, event by event.

    A sub-agent's lines are indented under the call that started it (one level per depth), and
    a search's sub-total follows that call's result line: the search reports a running
    sub-total with each of its requests, and only the last one is the search's bill. Events the
    log shows nothing for (a new turn, a round's usage, a running sub-total, the plan tool's
    call and result) have no lines.
    """

    locale: Locale
    _subtotals: dict[str, Usage] = field(default_factory=dict)

    def lines(self, event: Event) -> list[str]:
        locale = self.locale
        match event:
            case Nested(parent=parent, event=inner):
                if isinstance(inner, UsageReported) and inner.subtotal is not None:
                    self._subtotals[parent] = inner.subtotal
                return [nested_line(line, locale) for line in self.lines(inner)]
            case ToolStarted(name=name, input=tool_input):
                return [] if name == PLAN_TOOL else [tool_line(name, tool_input, locale)]
            case ToolFinished(name=name, is_error=False) if name == PLAN_TOOL:
                return []
            case ToolFinished(tool_use_id=use_id, is_error=is_error, summary=summary):
                key = "lsp.log.tool_error" if is_error else "lsp.log.tool_done"
                lines = [text(key, locale, summary=one_line(summary, SUMMARY_MAX))]
                if (subtotal := self._subtotals.pop(use_id, None)) is not None:
                    lines.append(part_bill_line("lsp.log.bill.search", subtotal, locale))
                return lines
            case UsageReported(purpose="compaction", request=request):
                return [part_bill_line("lsp.log.bill.compaction", request, locale)]
            case Notice(kind=kind, text=notice_text):
                key = "lsp.log.startup" if kind in STARTUP_NOTICES else "lsp.log.notice"
                return [text(key, locale, text=notice_text)]
            case EditApplied(rel=rel, diff=diff):
                head = text("lsp.log.edit", locale, path=rel)
                return [head, *("    " + line for line in diff.splitlines())]
        return []


# -- the plan ---------------------------------------------------------------------------------


def plan_title(plan: Plan, locale: Locale) -> str:
    """`Plan: 1 of 4 done`."""
    done = sum(1 for item in plan if item.status == "completed")
    return text("lsp.plan.title", locale, done=done, total=len(plan))


def plan_item_lines(plan: Plan) -> list[str]:
    """One line per item, its status mark first: `✓ Read calc.py`, `▶ Fix the sign`."""
    return [f"{PLAN_MARKS[item.status]} {item.content}" for item in plan]


def plan_current(plan: Plan, locale: Locale) -> str | None:
    """`step 2 of 4: Fix the sign`, the step in progress (what the progress line shows), or None."""
    return step_label(plan, locale)


# -- the end of a run -------------------------------------------------------------------------


def end_line(finished: RunFinished, bill: str | None, locale: Locale) -> str:
    """The run's last line: its status, the server's verdict and the seed's bill (Day 18),
    `done · verified · (this run: 2 request(s), …)`."""
    parts = [text(f"lsp.status.{finished.status}", locale)]
    if finished.verified is not None:
        parts.append(text(f"verify.status.{finished.verified.status}", locale))
    if bill is not None:
        parts.append(bill)
    return " · ".join(parts)


def end_lines(finished: RunFinished, bill: str | None, locale: Locale) -> list[str]:
    """What the log shows when a run ends: why it stopped (unless it is done), the verdict
    with what it rests on, the bill."""
    lines: list[str] = []
    if finished.status in ("failed", "limit", "cancelled") and finished.text:
        lines.append(text("lsp.log.stopped", locale, text=finished.text))
    if (verdict := finished.verified) is not None:
        status = text(f"verify.status.{verdict.status}", locale)
        lines.append(text("lsp.log.verified", locale, status=status, detail=verdict.detail))
    if bill is not None:
        lines.append(text("lsp.log.bill", locale, bill=bill))
    return lines
