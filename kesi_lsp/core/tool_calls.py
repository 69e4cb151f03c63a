"""Running one reply's tool calls: reads at the same time, everything else one by one.

Day 06 already notes that one reply may ask for several tools, and that KeSi's `for` still runs
them one after another: "要讓執行也並行，還得用 asyncio.to_thread() 搭配 asyncio.gather()".
Day 09 says why not everything: two edits of one file depend on their order, a command may
depend on an edit. So only the read-only tools (`READ_ONLY_TOOLS`: read_file, list_files, glob,
grep — they change nothing and ask nobody) run together; a run of consecutive reads becomes one
batch, and every other call runs alone, in order, after the reads before it.

Whatever the order in which calls finish, their results go back in the model's order, and the
`ToolFinished` events too (a log line reads "done: …" without an id). A cancellation stops
every call of the batch at once; a call that had finished keeps its result, an interrupted one
gets the seed's "interrupted" result, and the calls after it are not run (Day 12).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kesi_lsp.catalog import text
from kesi_lsp.core import tools as tool_registry
from kesi_lsp.core.approval import PromptInterrupted
from kesi_lsp.core.events import ToolFinished, ToolStarted
from kesi_lsp.core.history import tool_result
from kesi_lsp.core.summary import summarize
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult

CallRunner = Callable[[str, str, object], Awaitable[ToolResult]]
"""Runs one call `(tool_use id, name, input)`; the loop's wraps the repeat watch around it."""

if TYPE_CHECKING:
    from anthropic.types import ToolResultBlockParam, ToolUseBlockParam


@dataclass(frozen=True)
class _Call:
    use_id: str
    name: str
    input: object

    @property
    def shown(self) -> Mapping[str, object]:
        return self.input if isinstance(self.input, Mapping) else {}


@dataclass(frozen=True)
class _Outcome:
    output: str
    is_error: bool
    summary: str | None = None
    interrupted: bool = False


def batches(uses: Sequence[ToolUseBlockParam]) -> list[list[_Call]]:
    """Consecutive read-only calls together; every other call on its own; order kept."""
    out: list[list[_Call]] = []
    for use in uses:
        call = _Call(str(use["id"]), str(use["name"]), use.get("input") or {})
        parallel = call.name in tool_registry.READ_ONLY_TOOLS
        if parallel and out and out[-1][0].name in tool_registry.READ_ONLY_TOOLS:
            out[-1].append(call)
        else:
            out.append([call])
    return out


def _interrupted_key(exc: BaseException) -> str:
    """The cancelled tool's result: the permission prompt, or the tool itself (Day 14)."""
    if isinstance(exc, PromptInterrupted):
        return "loop.prompt_interrupted"
    return "loop.tool_interrupted"


async def _plain(use_id: str, name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
    return await tool_registry.run_tool(name, tool_input, ctx, call_id=use_id)


async def _run(call: _Call, ctx: ToolContext, runner: CallRunner | None) -> _Outcome:
    """One call; never raises but for cancellation."""
    try:
        if runner is None:
            result = await _plain(call.use_id, call.name, call.input, ctx)
        else:
            result = await runner(call.use_id, call.name, call.input)
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        # run_tool turns every expected failure into a result; this is a bug's last net.
        kind = type(exc).__name__
        return _Outcome(text("loop.tool_crashed", ctx.locale, name=call.name, kind=kind), True)
    return _Outcome(result.text, result.is_error, result.summary)


def _outcome_of(task: asyncio.Task[_Outcome], ctx: ToolContext) -> _Outcome:
    """A finished task's outcome, or the interrupted result when it was cancelled."""
    if task.cancelled():
        return _Outcome(text("loop.tool_interrupted", ctx.locale), True, interrupted=True)
    return task.result()  # _run turns every exception but cancellation into an outcome


async def _batch(
    calls: Sequence[_Call], ctx: ToolContext, runner: CallRunner | None
) -> tuple[list[_Outcome], bool]:
    """Run `calls` at once and finish them in order; on cancellation stop them all.

    Returns the outcomes and whether the run was cancelled meanwhile.
    """
    tasks = [asyncio.ensure_future(_run(call, ctx, runner)) for call in calls]
    outcomes: list[_Outcome] = []
    cancelled = False
    try:
        for call, task in zip(calls, tasks, strict=True):
            await asyncio.wait({task})
            outcomes.append(_outcome_of(task, ctx))
            _finished(call, outcomes[-1], ctx)
    except asyncio.CancelledError:
        cancelled = True
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks)
        for call, task in zip(calls[len(outcomes) :], tasks[len(outcomes) :], strict=True):
            outcomes.append(_outcome_of(task, ctx))
            _finished(call, outcomes[-1], ctx)
    return outcomes, cancelled


async def _single(call: _Call, ctx: ToolContext, runner: CallRunner | None) -> _Outcome:
    try:
        outcome = await _run(call, ctx, runner)
    except asyncio.CancelledError as exc:
        outcome = _Outcome(text(_interrupted_key(exc), ctx.locale), True, interrupted=True)
    _finished(call, outcome, ctx)
    return outcome


def _finished(call: _Call, outcome: _Outcome, ctx: ToolContext) -> None:
    summary = outcome.summary
    if summary is None:
        summary = summarize(call.name, outcome.output, is_error=outcome.is_error, locale=ctx.locale)
    ctx.emit(
        ToolFinished(
            tool_use_id=call.use_id, name=call.name, is_error=outcome.is_error, summary=summary
        )
    )


async def run_calls(
    uses: Sequence[ToolUseBlockParam], ctx: ToolContext, runner: CallRunner | None = None
) -> tuple[list[ToolResultBlockParam], bool]:
    """Run a reply's tool calls; every one gets a result, in order, even after an interruption.

    `runner` runs one call (default: the registry's `run_tool`). Returns the results and
    whether the run was interrupted.
    """
    results: list[ToolResultBlockParam] = []
    interrupted = False
    for group in batches(uses):
        if interrupted:
            skipped = text("loop.tool_skipped", ctx.locale)
            results += [tool_result(call.use_id, skipped, True) for call in group]
            continue
        for call in group:
            ctx.emit(ToolStarted(tool_use_id=call.use_id, name=call.name, input=dict(call.shown)))
        cancelled = False
        if len(group) == 1:
            outcomes = [await _single(group[0], ctx, runner)]
        else:
            outcomes, cancelled = await _batch(group, ctx, runner)
        for call, outcome in zip(group, outcomes, strict=True):
            results.append(tool_result(call.use_id, outcome.output, outcome.is_error))
        interrupted = cancelled or any(o.interrupted for o in outcomes)
    return results, interrupted
