"""The search sub-agent's loop (see the package docstring for its rules).

A smaller sibling of `kesi_lsp.core.loop`: stream a reply, run the read-only tools it asks
for, repeat, and return the final text. It shares the streaming, the watchdog, the history
helpers, the loop detection and the bill with the main loop, and differs where a search
should: four tools, its own turn limit, a last round that must conclude, and failures that
become an error result for the main model instead of the end of the run.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from kesi_lsp.catalog import text
from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.events import Event, EventSink, Nested, ToolFinished, ToolStarted, TurnStarted
from kesi_lsp.core.history import (
    add_assistant,
    add_user_prompt,
    block_type,
    text_param,
    to_params,
    tool_result,
    tool_uses,
    with_cache_breakpoint,
)
from kesi_lsp.core.model.describe import describe_api_error
from kesi_lsp.core.repeats import RepeatWatch
from kesi_lsp.core.session import Session
from kesi_lsp.core.stream import TurnResult, stream_turn
from kesi_lsp.core.subagent.prompt import search_system
from kesi_lsp.core.summary import summarize
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.dispatch import dispatch
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.tools.schemas import tool_schema
from kesi_lsp.core.untrusted import marked_history

if TYPE_CHECKING:
    from anthropic.types import ContentBlockParam, ToolResultBlockParam, ToolUseBlockParam

    from kesi_lsp.core.cost.bill import RunBill
    from kesi_lsp.core.model.anthropic import ModelClient

AGENT: Final = "search"
SEARCH_TOOLS: Final = ("read_file", "list_files", "glob", "grep")


async def run_search(task: str, ctx: ToolContext, call_id: str) -> ToolResult:
    """Answer `task` with a fresh read-only loop; its events are nested under `call_id`."""
    assert ctx.model is not None and ctx.bill is not None
    return await _Search(task, ctx, ctx.model, ctx.bill, call_id).run()


def _nested(emit: EventSink, parent: str) -> EventSink:
    def nested(event: Event) -> None:
        emit(Nested(parent=parent, agent=AGENT, event=event))

    return nested


class _Search:
    """One search: a child session in the same workspace, and the main run's bill."""

    def __init__(
        self, task: str, ctx: ToolContext, model: ModelClient, bill: RunBill, call_id: str
    ) -> None:
        settings = ctx.session.settings
        self.task = task
        self.model = model
        self.bill = bill
        self.settings = settings
        self.locale = ctx.locale
        self.emit = _nested(ctx.emit, call_id)
        self.child = Session(root=ctx.session.root, settings=settings)
        # No model and no bill: the sub-agent's tools cannot start another sub-agent.
        self.ctx = ToolContext(
            session=self.child,
            view=ctx.view,
            gate=ctx.gate,
            sandbox=ctx.sandbox,
            environ=ctx.environ,
            emit=self.emit,
        )
        self.repeats = RepeatWatch(self.locale)
        self.subtotal = Usage()
        self.calls = 0
        self.today = datetime.date.today()

    async def run(self) -> ToolResult:
        history = self.child.history
        add_user_prompt(history, self.task, self.locale)
        max_turns = max(2, self.settings.search_max_turns)
        for turn in range(1, max_turns + 1):
            final = turn == max_turns or self.repeats.stopped is not None
            if final:
                self._conclude_now()
            self.emit(TurnStarted(turn=turn, max_turns=max_turns))
            outcome = self._reply(await self._request(final=final))
            if isinstance(outcome, ToolResult):
                return outcome
            if final:
                break  # told to conclude, it asked for tools again: nothing to bring back
            results = await self._run_tools(outcome)
            history.append({"role": "user", "content": list(results)})
        return ToolResult(text("search.no_conclusion", self.locale), True)

    async def _request(self, *, final: bool) -> TurnResult:
        result = await stream_turn(
            self.model,
            self._params(final=final),
            self.emit,
            self.locale,
            idle_timeout=self.settings.stream_idle_timeout,
        )
        used = self.bill.charge(result, purpose="search", emit=self.emit, subtotal=self.subtotal)
        if used is not None:
            self.subtotal = self.subtotal + used
        if result.kind == "cancelled":
            raise asyncio.CancelledError  # the run was cancelled: so is its search
        return result

    def _reply(self, result: TurnResult) -> ToolResult | list[ToolUseBlockParam]:
        """The conclusion or a failure (a ToolResult), or the tool calls to run next."""
        if result.kind != "complete" or result.message is None:
            assert result.error is not None
            reason = describe_api_error(result.error, self.locale, self.settings.editor)
            return ToolResult(text("search.failed", self.locale, reason=reason), True)
        message = result.message
        if message.stop_reason == "max_tokens":
            return ToolResult(text("search.cut_off", self.locale), True)
        content: list[ContentBlockParam] = to_params(message.content)
        if message.stop_reason != "tool_use":
            content = [b for b in content if block_type(b) != "tool_use"]
        add_assistant(self.child.history, content)
        uses = tool_uses(content)
        if uses:
            return uses
        conclusion = "".join(str(b.get("text", "")) for b in content if block_type(b) == "text")
        if not conclusion.strip():
            return ToolResult(text("search.no_conclusion", self.locale), True)
        rounds = self.subtotal.requests
        footer = text("search.footer", self.locale, rounds=rounds, calls=self.calls)
        return ToolResult(f"{conclusion.strip()}\n\n{footer}")

    async def _run_tools(self, uses: list[ToolUseBlockParam]) -> list[ToolResultBlockParam]:
        results: list[ToolResultBlockParam] = []
        for use in uses:
            use_id, name = str(use["id"]), str(use["name"])
            tool_input = use.get("input") or {}
            shown: Mapping[str, object] = tool_input if isinstance(tool_input, Mapping) else {}
            self.emit(ToolStarted(tool_use_id=use_id, name=name, input=dict(shown)))
            self.calls += 1
            if name not in SEARCH_TOOLS:
                outcome = ToolResult(text("search.not_allowed", self.locale, name=name), True)
            else:
                call = functools.partial(dispatch, name, tool_input, self.ctx, only=SEARCH_TOOLS)
                outcome = await self.repeats.run(name, tool_input, call)
            results.append(tool_result(use_id, outcome.text, outcome.is_error))
            summary = summarize(name, outcome.text, is_error=outcome.is_error, locale=self.locale)
            self.emit(
                ToolFinished(
                    tool_use_id=use_id, name=name, is_error=outcome.is_error, summary=summary
                )
            )
        return results

    def _conclude_now(self) -> None:
        """Ask for the conclusion in the last user message (it ends with tool results)."""
        last = self.child.history[-1]
        content = last["content"]
        blocks: list[Any] = [text_param(content)] if isinstance(content, str) else list(content)
        blocks.append(text_param(text("search.conclude_now", self.locale)))
        self.child.history[-1] = {"role": "user", "content": blocks}

    def _params(self, *, final: bool) -> dict[str, Any]:
        caching = self.settings.prompt_caching
        marked = marked_history(self.child.history, self.locale)  # outside content as data
        params: dict[str, Any] = {
            "model": self.settings.model,
            "max_tokens": self.settings.max_tokens,
            "system": search_system(
                self.child.root,
                self.today,
                self.locale,
                max_turns=self.settings.search_max_turns,
                caching=caching,
            ),
            "tools": [tool_schema(name, self.locale) for name in SEARCH_TOOLS],
            "messages": with_cache_breakpoint(marked) if caching else marked,
        }
        if final:
            params["tool_choice"] = {"type": "none"}
        return params
