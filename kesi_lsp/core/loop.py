"""The agent loop: talk to the model, run the tools it asks for, and stop safely.

One call of `run_agent` is one user message (the seed's inner loop). Each round sends the whole
history, streams the reply, and either finishes (no tool asked), or runs the tools and loops.
It stops, always leaving a history the Messages API accepts and a message saying why:

- after `max_turns` round-trips (Day 12, 20 by default) — the check sits where the history is
  complete, before a request;
- after `max_tool_failures` consecutive rounds in which *every* tool failed (3 by default);
- when a reply was cut by `max_tokens` or the context window: no tool of it runs (Day 10);
- on an API error: before the stream started the history is left as it was (Day 12); after,
  only the finished text is kept and no tool runs (Day 17, Day 18);
- when the host cancels the task (Day 12, Day 17): only complete blocks are kept, a half
  tool_use never is, every kept tool_use is answered ("state unknown" when it may have run);
- when the same call keeps answering the same (`kesi_lsp.core.repeats`, limit `repeating`).

Around each request the loop's helpers do their part: trimming and compaction keep the history
within budget (`kesi_lsp.core.trim`, `kesi_lsp.core.compaction`), a watchdog closes a stalled
stream (`kesi_lsp.core.watchdog`), the run's bill counts every request made for it
(`kesi_lsp.core.cost.bill`), and the session is checkpointed after each round so a restart can
resume it (`Session.checkpoint`).

Cancellation contract: the host cancels a run with `task.cancel()` on the task running
`run_agent`. `run_agent` then seals the history, emits `RunFinished(status="cancelled")` and
**returns** it (it does not re-raise `CancelledError`; it calls `uncancel()` on its task, so the
task ends normally with that result). The stop messages are written into the history as an
assistant message, so the model knows next time why it stopped (Day 12 rule 3).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Sequence
from typing import Any

from anthropic.types import ContentBlockParam, Message, ToolResultBlockParam, ToolUseBlockParam

from kesi_lsp.catalog import Locale, reset_command, text
from kesi_lsp.core import tools as tool_registry
from kesi_lsp.core.background.words import ended_note
from kesi_lsp.core.changes.run import note as change_note
from kesi_lsp.core.compaction import Compactor
from kesi_lsp.core.cost.bill import RunBill
from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.events import (
    Event,
    EventSink,
    LimitKind,
    Notice,
    NoticeKind,
    RunFinished,
    RunStatus,
    TurnStarted,
)
from kesi_lsp.core.history import (
    add_assistant,
    add_note,
    add_user_prompt,
    block_type,
    seal_dangling_tool_use,
    text_param,
    to_params,
    tool_uses,
    with_cache_breakpoint,
)
from kesi_lsp.core.model.anthropic import ModelClient
from kesi_lsp.core.model.describe import describe_api_error
from kesi_lsp.core.prompt import system_blocks
from kesi_lsp.core.redaction import Redactor, redactor_for
from kesi_lsp.core.redaction.values import redact_reply, redact_value
from kesi_lsp.core.repeats import RepeatWatch
from kesi_lsp.core.run_environment import prompt_environment
from kesi_lsp.core.stream import TurnResult, stream_turn
from kesi_lsp.core.tool_calls import run_calls
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.trim.unchanged import unchanged_read
from kesi_lsp.core.untrusted import marked_history
from kesi_lsp.core.verification.tracker import Verification

CUT_OFF: dict[str, tuple[str, LimitKind]] = {
    "max_tokens": ("loop.max_tokens", "max_tokens"),
    "model_context_window_exceeded": ("loop.context_window", "context_window"),
}


async def run_agent(ctx: ToolContext, prompt: str, model: ModelClient) -> RunFinished:
    """Run one user message to its end; see the module docstring for every way it ends."""
    return await _Run(ctx, model).run(prompt)


async def compact_now(ctx: ToolContext, model: ModelClient) -> RunFinished:
    """Summarise the session's older turns now (`kesi.compact`); see kesi_lsp.core.compaction.

    Ends `done` (compacted, or nothing to do), `failed` or `cancelled`; on anything but a
    compaction the history is exactly as it was.
    """
    return await _Run(ctx, model).compact()


def _joined_text(content: Sequence[ContentBlockParam]) -> str:
    return "".join(str(b.get("text", "")) for b in content if block_type(b) == "text")


class _Run:
    """The state of one run: its context, its running bill and its consecutive failures.

    Every event also passes through the run's `Verification`, which reaches the verdict that
    `RunFinished.verified` carries from what really happened.
    """

    def __init__(self, ctx: ToolContext, model: ModelClient) -> None:
        self.verification = Verification(ctx.locale)
        self.redact = redactor_for(ctx.environ, ctx.locale, ctx.session.settings.pass_env)
        self.bill = RunBill(ctx.session, ctx.emit)
        self.ctx = dataclasses.replace(
            ctx, model=model, bill=self.bill, emit=self._emit_to(ctx.emit, self.redact)
        )
        self.model = model
        self.session = ctx.session
        self.settings = ctx.session.settings
        self.locale: Locale = ctx.locale
        self.history = ctx.session.history
        self.repeats = RepeatWatch(self.locale)
        self.compactor = Compactor(self.ctx, model, self.bill, self._params)

    @property
    def usage(self) -> Usage:
        return self.bill.total

    def _emit_to(self, sink: EventSink, redact: Redactor) -> EventSink:
        def emit(event: Event) -> None:
            self.verification.feed(event)
            sink(redact_value(event, redact))  # secrets never reach the stream or ACP

        return emit

    # --- the loop ---

    async def run(self, prompt: str) -> RunFinished:
        if not prompt.strip():
            # The API refuses blank text, and the seed keeps a failed prompt in the history:
            # a blank one would poison every later request. Like the seed's REPL, skip it.
            return self._finish("failed", text("loop.empty_prompt", self.locale))
        add_user_prompt(self.history, self.redact(prompt), self.locale)
        try:
            finished = await self._loop()
        except asyncio.CancelledError:
            # A cancellation outside the stream and the tools (they handle their own).
            seal_dangling_tool_use(self.history, self.locale)
            finished = self._stop("cancelled", "loop.interrupted_tools", notice="interrupted")
        if finished.status == "cancelled":
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                task.uncancel()
        return finished

    async def _loop(self) -> RunFinished:
        max_turns = self.settings.max_turns
        failures = 0
        for turn in range(1, max_turns + 1):
            self.session.checkpoint(running=True)
            self.ctx.emit(TurnStarted(turn=turn, max_turns=max_turns))
            await self._tell_changes()
            await self._instructions()
            result = await self.compactor.turn(self._send)  # compacts, trims, then sends
            if result.kind == "failed_before_start":
                assert result.error is not None
                message = describe_api_error(result.error, self.locale, self.settings.editor)
                return self._finish("failed", message, notice="error")
            self.bill.charge(result)
            if result.kind == "cancelled":
                return self._interrupted_stream(result)
            if result.kind == "failed_after_start":
                return self._broken_stream(result)
            assert result.message is not None
            done = await self._handle_reply(result.message)
            if isinstance(done, RunFinished):
                return done
            failures = failures + 1 if done else 0
            if failures >= self.settings.max_tool_failures:
                return self._stop(
                    "limit",
                    "loop.tool_failures",
                    notice="limit",
                    limit="tool_failures",
                    max_failures=self.settings.max_tool_failures,
                    turn=turn,
                )
        return self._stop(
            "limit",
            "loop.max_turns",
            notice="limit",
            limit="max_turns",
            max_turns=max_turns,
            reset=reset_command(self.settings.editor, self.locale),
        )

    async def _handle_reply(self, message: Message) -> RunFinished | bool:
        """Record a whole reply and run its tools. Returns the end of the run, or whether every
        tool of this round failed."""
        if message.stop_reason in CUT_OFF:
            # The reply may end in a half-written tool call: keep none of it, run nothing.
            key, limit = CUT_OFF[message.stop_reason]
            return self._stop("limit", key, notice="limit", limit=limit)
        content = to_params(message.content)
        if message.stop_reason != "tool_use":
            # Only a tool_use stop asks for tools; a stray call under any other stop is not run
            # and not kept, so the history never holds an unanswered tool_use.
            content = [b for b in content if block_type(b) != "tool_use"]
        add_assistant(self.history, redact_reply(content, self.redact))
        uses = tool_uses(content)
        if not uses:
            return self._finish("done", _joined_text(content))
        self.session.checkpoint(running=True)  # a restart now seals these calls as unknown
        results, interrupted = await self._run_tools(uses)
        self.history.append({"role": "user", "content": list(results)})
        if interrupted:
            return self._stop("cancelled", "loop.interrupted_tools", notice="interrupted")
        if self.repeats.stopped is not None:
            stop = self.repeats.stop_message()
            add_assistant(self.history, stop)
            return self._finish("limit", stop, notice="limit", limit="repeating")
        return all(r.get("is_error", False) for r in results)

    async def _tell_changes(self) -> None:
        """Before a request: what the user did with the agent's changes since the last one
        (undid, kept, changed), so the model never silently redoes undone work (§2.9), and
        the background tasks that ended since (issue 28)."""
        ended = ended_note(self.session.tasks.take_ended(), self.locale)
        if ended is not None:
            add_note(self.history, self.redact(ended))
        if self.ctx.changes is None:
            return
        said = await change_note(self.ctx.changes.changes, self.ctx.view, self.locale)
        if said is not None:
            add_note(self.history, said)

    # --- tools ---

    async def _run_tools(
        self, uses: Sequence[ToolUseBlockParam]
    ) -> tuple[list[ToolResultBlockParam], bool]:
        """Run the tool calls (reads at once, the rest in order: `kesi_lsp.core.tool_calls`),
        each through the repeat watch; every one gets a result, even after an interruption."""
        return await run_calls(uses, self.ctx, self._call)

    async def _call(self, use_id: str, name: str, tool_input: object) -> ToolResult:
        """One tool call, as the repeat watch lets it run (Day 12's fingerprint)."""
        return await self.repeats.run(
            name,
            tool_input,
            functools.partial(tool_registry.run_tool, name, tool_input, self.ctx, call_id=use_id),
            functools.partial(self._unchanged, name, tool_input),
        )

    async def _instructions(self) -> None:
        """Look at the project's AGENTS.md before each request; say when it was (re)loaded."""
        instructions = self.session.instructions
        await instructions.refresh(self.session.root)
        said = instructions.take_notice(self.locale)
        if said is not None:
            self.ctx.emit(Notice(kind="instructions", text=said))

    # --- when a stream did not finish ---

    def _complete_blocks(self, result: TurnResult, *, text_only: bool) -> list[ContentBlockParam]:
        snapshot = result.snapshot
        if snapshot is None:
            return []
        blocks = to_params(snapshot.content[: result.finished])
        if text_only or snapshot.stop_reason in CUT_OFF:
            blocks = [b for b in blocks if block_type(b) == "text"]
        return blocks

    def _interrupted_stream(self, result: TurnResult) -> RunFinished:
        """Keep only complete blocks; answer any complete tool_use with "state unknown"."""
        kept = self._complete_blocks(result, text_only=False)
        message = text("loop.interrupted_stream", self.locale)
        if tool_uses(kept):
            add_assistant(self.history, redact_reply(kept, self.redact))
            seal_dangling_tool_use(self.history, self.locale)
            add_assistant(self.history, message)
        else:
            add_assistant(self.history, [*redact_reply(kept, self.redact), text_param(message)])
        return self._finish("cancelled", message, notice="interrupted")

    def _broken_stream(self, result: TurnResult) -> RunFinished:
        """Keep the finished text, run no tool, and write the error down (Day 17, Day 18)."""
        assert result.error is not None
        kept = self._complete_blocks(result, text_only=True)
        message = describe_api_error(result.error, self.locale, self.settings.editor)
        add_assistant(self.history, [*kept, text_param(message)])
        return self._finish("failed", message, notice="error")

    # --- bookkeeping ---

    def _params(self) -> dict[str, Any]:
        """The request: model, system prompt (rules + this request's environment), tools,
        history (outside content marked, `core.untrusted`; the cache breakpoint if caching)."""
        caching, marked = self.settings.prompt_caching, marked_history(self.history, self.locale)
        messages = with_cache_breakpoint(marked) if caching else marked
        return {
            "model": self.settings.model,
            "max_tokens": self.settings.max_tokens,
            "system": system_blocks(
                prompt_environment(self.ctx),
                self.locale,
                caching=caching,
                instructions=self.session.instructions.block(self.locale),
            ),
            "tools": self._tools(),
            "messages": messages,
        }

    def _tools(self) -> list[Any]:
        """KeSi's tools and the MCP tools ready now (a changed MCP list counts from here)."""
        tools, notices = tool_registry.request_tools(self.ctx)
        for said in notices:
            self.ctx.emit(Notice(kind="info", text=said))
        return tools

    def _unchanged(self, name: str, tool_input: object, outcome: ToolResult) -> ToolResult:
        """A re-read whose text is still in view is sent as a note (`trim/unchanged.py`)."""
        if not self.settings.context_trimming:
            return outcome
        return unchanged_read(self.history, name, tool_input, outcome, self.locale)

    async def _send(self, params: dict[str, Any]) -> TurnResult:
        idle = self.settings.stream_idle_timeout
        return await stream_turn(self.model, params, self.ctx.emit, self.locale, idle_timeout=idle)

    def _stop(
        self,
        status: RunStatus,
        key: str,
        *,
        notice: NoticeKind,
        limit: LimitKind | None = None,
        **fields: object,
    ) -> RunFinished:
        """End the run with a stop message that is also written into the history."""
        message = text(key, self.locale, **fields)
        add_assistant(self.history, message)
        return self._finish(status, message, notice=notice, limit=limit)

    def _finish(
        self,
        status: RunStatus,
        message: str,
        *,
        notice: NoticeKind | None = None,
        limit: LimitKind | None = None,
    ) -> RunFinished:
        if notice is not None:
            self.ctx.emit(Notice(kind=notice, text=message))
        verified = self.verification.verdict()
        finished = RunFinished(
            status=status, text=message, usage=self.usage, limit=limit, verified=verified
        )
        self.session.checkpoint(running=False)
        self.ctx.emit(finished)
        return finished

    async def compact(self) -> RunFinished:
        """`compact_now`: one summary on demand, as its own short run."""
        try:
            status, message = await self.compactor.on_demand()
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                task.uncancel()
            status, message = "cancelled", text("compaction.cancelled", self.locale)
        return self._finish(status, message)
