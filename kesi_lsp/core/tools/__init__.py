"""KeSi's seven tools: read_file, list_files, glob, grep, edit_file, write_file, run_command.

The public surface the loop uses:
- `TOOL_NAMES`, `READ_ONLY_TOOLS`;
- `tool_schemas(locale)`: the tool definitions sent to the Messages API (strict schemas);
- `run_tool(name, tool_input, ctx)`: run one call; never raises for bad input, an unknown tool
  or a failing tool (those become `ToolResult(..., is_error=True)`); only cancellation
  (`asyncio.CancelledError`) propagates.

The dispatch table is the seed's (Day 07): look the name up, check the arguments against the
same table the schemas come from, run, and turn anything unexpected into an error result so one
broken tool never brings the loop down.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.files import edit_file, read_file, write_file
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.tools.ripgrep import grep
from kesi_lsp.core.tools.schemas import check_arguments, tool_schema
from kesi_lsp.core.tools.search import glob_files, list_files
from kesi_lsp.core.tools.shell import run_command

if TYPE_CHECKING:
    from anthropic.types import ToolParam

__all__ = [
    "READ_ONLY_TOOLS",
    "TOOL_NAMES",
    "ToolContext",
    "ToolResult",
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
)
READ_ONLY_TOOLS: Final = frozenset({"read_file", "list_files", "glob", "grep"})

ToolFunction = Callable[[dict[str, str], ToolContext], Awaitable[ToolResult]]

TOOL_FUNCTIONS: Final[Mapping[str, ToolFunction]] = {
    "read_file": read_file,
    "list_files": list_files,
    "glob": glob_files,
    "grep": grep,
    "edit_file": edit_file,
    "write_file": write_file,
    "run_command": run_command,
}


def tool_schemas(locale: Locale) -> list[ToolParam]:
    """The seven tool definitions, descriptions in `locale`, in `TOOL_NAMES` order."""
    return [tool_schema(name, locale) for name in TOOL_NAMES]


async def run_tool(name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
    """Run one tool call and return its result; only cancellation propagates."""
    locale = ctx.locale
    function = TOOL_FUNCTIONS.get(name)
    if function is None:
        return ToolResult(text("tools.unknown", locale, name=name), True)
    arguments = check_arguments(name, tool_input, locale)
    if isinstance(arguments, ToolResult):
        return arguments
    try:
        if name == "run_command" and ctx.changes is not None:
            # The files it deletes among those KeSi knows go into the run's change set.
            async with ctx.changes.watching(ctx.session.read_texts):
                return await function(arguments, ctx)
        return await function(arguments, ctx)
    except Exception as exc:
        return ToolResult(text("tools.crashed", locale, name=name, error=type(exc).__name__), True)
