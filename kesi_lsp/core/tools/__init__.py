"""KeSi's tools: the seed's seven (read_file, list_files, glob, grep, edit_file, write_file,
run_command), the plan (todo, Day 01), and search_agent, which hands a wide search to a
read-only sub-agent.

The public surface the loop uses:
- `TOOL_NAMES`, `READ_ONLY_TOOLS`;
- `tool_schemas(locale)`: the tool definitions sent to the Messages API (strict schemas);
- `run_tool(name, tool_input, ctx, call_id=...)`: run one call; never raises for bad input, an
  unknown tool or a failing tool (those become `ToolResult(..., is_error=True)`); only
  cancellation (`asyncio.CancelledError`) propagates. Every result comes back redacted
  (`kesi_lsp.core.redaction`): no secret leaves a tool. `call_id` (the tool_use id) lets the
  search sub-agent's events name the call they belong to.

The dispatch table is the seed's (Day 07): look the name up, check the arguments against the
same table the schemas come from, run, and turn anything unexpected into an error result so one
broken tool never brings the loop down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.dispatch import READ_ONLY_TOOLS, TOOL_FUNCTIONS, dispatch, redacted
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.tools.schemas import check_arguments, tool_schema
from kesi_lsp.core.tools.search_agent import search_agent

if TYPE_CHECKING:
    from anthropic.types import ToolParam

__all__ = [
    "READ_ONLY_TOOLS",
    "TOOL_FUNCTIONS",
    "TOOL_NAMES",
    "ToolContext",
    "ToolResult",
    "request_tools",
    "run_tool",
    "tool_schemas",
]

TOOL_NAMES: Final = (
    "read_file",
    "list_files",
    "glob",
    "grep",
    "edit_file",
    "write_file",
    "run_command",
    "task_output",
    "task_stop",
    "todo",
    "search_agent",
)


def tool_schemas(locale: Locale) -> list[ToolParam]:
    """The tool definitions, descriptions in `locale`, in `TOOL_NAMES` order."""
    return [tool_schema(name, locale) for name in TOOL_NAMES]


def request_tools(ctx: ToolContext) -> tuple[list[ToolParam], list[str]]:
    """The tools of one request: KeSi's own, then the MCP tools of the session's ready
    servers (`mcp__<server>__<tool>`, in a stable order); and the notices of MCP tools left
    out because the API would refuse them (each said once)."""
    own = tool_schemas(ctx.locale)
    if ctx.mcp is None:
        return own, []
    offered, notices = ctx.mcp.offered()
    return own + offered, notices  # type: ignore[operator]


async def run_tool(
    name: str, tool_input: object, ctx: ToolContext, *, call_id: str = ""
) -> ToolResult:
    """Run one tool call and return its result; only cancellation propagates."""
    if ctx.mcp is not None and ctx.mcp.owns(name):
        try:
            return redacted(await ctx.mcp.call(name, tool_input, ctx), ctx)
        except Exception as exc:
            error = type(exc).__name__
            return ToolResult(text("tools.crashed", ctx.locale, name=name, error=error), True)
    if name != "search_agent":
        return await dispatch(name, tool_input, ctx)
    arguments = check_arguments(name, tool_input, ctx.locale)
    if isinstance(arguments, ToolResult):
        return arguments
    try:
        return redacted(await search_agent(arguments, ctx, call_id), ctx)
    except Exception as exc:
        error = type(exc).__name__
        return ToolResult(text("tools.crashed", ctx.locale, name=name, error=error), True)
