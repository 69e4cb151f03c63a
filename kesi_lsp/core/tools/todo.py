"""The todo tool: the model's plan, shown to the user while the run lives (Day 01).

The tool changes nothing on disk and asks nobody: it checks the whole list it is given
(`kesi_lsp.core.plan`), keeps it in the session and reports it as a `PlanUpdated` event, which
the editor shows (`kesi/plan`, the progress line, a log line).
"""

from __future__ import annotations

import contextlib
from typing import Any

from kesi_lsp.catalog import text
from kesi_lsp.core.events import PlanUpdated
from kesi_lsp.core.plan import PlanError, done_count, in_progress, parse_plan, plan_line
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult


async def todo(args: dict[str, Any], ctx: ToolContext) -> ToolResult:
    """Replace the session's plan with `items`; a bad plan changes nothing."""
    locale = ctx.locale
    try:
        plan = parse_plan(args["items"], locale)
    except PlanError as exc:
        return ToolResult(text("plan.refused", locale, reason=str(exc)), True)
    ctx.session.plan = plan
    with contextlib.suppress(Exception):  # a broken sink must not turn a saved plan into an error
        ctx.emit(PlanUpdated(plan))
    current = in_progress(plan)
    if current is None:
        done = text("plan.saved_idle", locale, done=done_count(plan), total=len(plan))
    else:
        done = text(
            "plan.saved",
            locale,
            done=done_count(plan),
            total=len(plan),
            content=current[1].content,
        )
    return ToolResult(done, summary=plan_line(plan, locale))
