"""KeSi's seven tools: read_file, list_files, glob, grep, edit_file, write_file, run_command.

The public surface the loop uses:
- `TOOL_NAMES`, `READ_ONLY_TOOLS`;
- `tool_schemas(locale)`: the tool definitions sent to the Messages API (strict schemas);
- `run_tool(name, tool_input, ctx)`: run one call; never raises for bad input, an unknown tool
  or a failing tool (those become `ToolResult(..., is_error=True)`); only cancellation
  (`asyncio.CancelledError`) propagates.

(Interface placeholder: the implementation lands with the core tools issue.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from anthropic.types import ToolParam

from kesi_lsp.catalog import Locale
from kesi_lsp.core.tools.context import ToolContext

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


@dataclass(frozen=True)
class ToolResult:
    """What goes back to the model as a `tool_result` block."""

    text: str
    is_error: bool = False


def tool_schemas(locale: Locale) -> list[ToolParam]:
    raise NotImplementedError


async def run_tool(name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
    raise NotImplementedError
