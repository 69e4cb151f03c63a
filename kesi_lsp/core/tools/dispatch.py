"""The seed's dispatch table (Day 07): look the name up, check the arguments, run, and turn
anything unexpected into an error result, so one broken tool never brings a loop down.

It holds the seed's seven tools, the plan (todo, Day 01) and the background tasks' two
(task_output, task_stop; run_command itself starts one with `background: true`). The registry
(`kesi_lsp.core.tools`) adds search_agent on top; the search sub-agent dispatches through this
table directly, limited to the read-only four, so the sub-agent and the tool that starts it
never import each other.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any, Final

from kesi_lsp.catalog import text
from kesi_lsp.core.redaction import redactor_for
from kesi_lsp.core.tools.commands import run_command, task_output, task_stop
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.files import edit_file, read_file, write_file
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.tools.ripgrep import grep
from kesi_lsp.core.tools.schemas import check_arguments
from kesi_lsp.core.tools.search import glob_files, list_files
from kesi_lsp.core.tools.todo import todo

ToolFunction = Callable[[dict[str, Any], ToolContext], Awaitable[ToolResult]]

TOOL_FUNCTIONS: Final[Mapping[str, ToolFunction]] = {
    "read_file": read_file,
    "list_files": list_files,
    "glob": glob_files,
    "grep": grep,
    "edit_file": edit_file,
    "write_file": write_file,
    "run_command": run_command,
    "task_output": task_output,
    "task_stop": task_stop,
    "todo": todo,
}
READ_ONLY_TOOLS: Final = frozenset({"read_file", "list_files", "glob", "grep"})
"""The tools that change nothing and ask nobody: one reply's reads run at the same time."""


def redacted(result: ToolResult, ctx: ToolContext) -> ToolResult:
    """The result with every secret replaced: the one place tool text passes before it leaves."""
    redact = redactor_for(ctx.environ, ctx.locale, ctx.session.settings.pass_env)
    summary = None if result.summary is None else redact(result.summary)
    content = redact(result.text)
    if content is result.text and summary == result.summary:
        return result
    return ToolResult(content, result.is_error, summary)


async def dispatch(
    name: str, tool_input: object, ctx: ToolContext, *, only: Collection[str] | None = None
) -> ToolResult:
    """Run one of the table's tools (of `only`, when given), redacted; only cancellation goes up."""
    return redacted(await _dispatch(name, tool_input, ctx, only=only), ctx)


async def _dispatch(
    name: str, tool_input: object, ctx: ToolContext, *, only: Collection[str] | None
) -> ToolResult:
    locale = ctx.locale
    function = TOOL_FUNCTIONS.get(name) if only is None or name in only else None
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
