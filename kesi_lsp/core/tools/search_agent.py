"""search_agent: a wide search done by a clean, read-only sub-agent (Day 01's 乾淨的分身).

This module is only the tool's door; the sub-agent's loop lives in `kesi_lsp.core.subagent`
and is imported when the tool first runs, because it needs the model client (and with it the
SDK), which the language server does not load at start-up.
"""

from __future__ import annotations

from kesi_lsp.catalog import text
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult


async def search_agent(args: dict[str, str], ctx: ToolContext, call_id: str) -> ToolResult:
    """Run the search sub-agent on `args["task"]` and return its conclusion."""
    if ctx.model is None or ctx.bill is None:
        return ToolResult(text("search.unavailable", ctx.locale), True)
    from kesi_lsp.core.subagent.loop import run_search  # late: it loads the SDK

    return await run_search(args["task"], ctx, call_id)
