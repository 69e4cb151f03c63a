"""Compaction: the older turns of a long conversation become one structured summary.

The seed promises it (Day 01: 把舊內容濃縮成摘要; Day 12: 真正的解法是把長對話壓縮掉). A long
session used to end in "prompt is too long" and a reset; trimming (`kesi_lsp.core.trim`) clears
old tool results, but not the conversation itself, tool inputs or the newest results.

- **When**: before a request, when the history passes the context budget (`contextBudget`),
  or when the request, calibrated by the API's own count of the previous one, nears the
  model's context window; and as a fallback when the API answers that the prompt is too long
  (then the request is sent again once). `kesi.compact` does it on demand. Setting
  `compaction` (`true`/`false`). Compaction comes before trimming: clearing old results at the
  budget rewrites the prompt cache from the first cleared block (most of the history), and a
  summary costs about the same once (its request reads the cached history at a tenth of the
  price) but leaves a far smaller history for every request after it (bench: the long session
  at 0.09x the seed instead of 0.11x). Trimming then clears whatever is left to clear, and
  does all the work when compaction is off or has nothing to summarise yet.
- **What**: one model call (`request.py`) summarises the messages before the cut (`plan.py`)
  into fixed sections: the task, decisions, files changed and how, what failed, what is open,
  facts with `path:line`. The latest turns, up to a fifth of the budget, stay verbatim; the cut
  never separates a `tool_use` from its `tool_result`.
- **Read records** of files whose content went into the summary are dropped, so write_file
  asks for a fresh read.
- **Told and billed**: a notice says what was summarised, and the summarising request is its
  own line in the bill (`purpose: "compaction"`).
- **Failure changes nothing**: an API error, a cut-off or empty summary, or a cancel leaves the
  history exactly as it was (a cancel then ends the run as any cancel does).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Final, Literal

from kesi_lsp.catalog import text
from kesi_lsp.core.compaction.plan import (
    MIN_SUMMARISED_TOKENS,
    Split,
    choose_split,
    compacted,
    reads_to_forget,
)
from kesi_lsp.core.compaction.request import prompt_too_long, summary_of, summary_params
from kesi_lsp.core.events import Event, Notice, RunStatus, TextDelta
from kesi_lsp.core.model.describe import describe_api_error
from kesi_lsp.core.model.window import WINDOW_SHARE, context_window, learn_window
from kesi_lsp.core.stream import TurnResult, stream_turn
from kesi_lsp.core.trim import trim_session
from kesi_lsp.core.trim.calls import estimate_tokens, history_tokens

if TYPE_CHECKING:
    from kesi_lsp.core.cost.bill import RunBill
    from kesi_lsp.core.model.anthropic import ModelClient
    from kesi_lsp.core.tools.context import ToolContext

__all__ = ["Compactor", "Reason", "prompt_too_long"]

SMALL_HISTORY: Final = 20_000
"""Estimated tokens under which a request does not wait for the window lookup: a tenth of the
known window, far from any share of it that would make compaction or trimming due."""
KEEP_SHARE: Final = 0.2
"""The latest turns kept verbatim: up to this share of the context budget."""

Reason = Literal["auto", "too_long", "manual"]
Params = Callable[[], dict[str, Any]]
Send = Callable[[dict[str, Any]], Awaitable[TurnResult]]


class Compactor:
    """Keeps one run's conversation within its budget (see the module docstring).

    `params` builds the loop's next request from the history as it is now; `bill` is the run's
    bill, which the summarising request is charged to.
    """

    def __init__(self, ctx: ToolContext, model: ModelClient, bill: RunBill, params: Params) -> None:
        self.ctx = ctx
        self.model = model
        self.bill = bill
        self.params = params
        self.session = ctx.session
        self.settings = ctx.session.settings
        self.locale = ctx.locale
        self._ratio = 1.0  # API tokens per estimated token, from the last whole reply
        self._fixed: int | None = None  # estimated tokens of the tools and system prompt
        self._unsent: dict[str, Any] | None = None  # the request `_fixed` was counted on
        self._quiet_until = 0  # no automatic compaction again before the history is this big
        self.failure: str | None = None  # why the last summary failed (None: it did not)

    # --- the loop's side ---

    async def turn(self, send: Send) -> TurnResult:
        """One round-trip of the loop: compact when due, trim what is left to trim, send; and
        compact once more (then resend) when the API says the prompt is too long.

        The model's window is asked from the API once per session. A small conversation does
        not wait for the answer: no Claude model's window is under the known value it is
        measured against meanwhile, so the lookup goes beside the first request instead of in
        front of it (issue 33: nothing else on the path to the first model request); a large
        one (a resumed session) is measured against the answer."""
        lookup = self._window_lookup()
        try:
            if lookup is not None and history_tokens(self.session.history) > SMALL_HISTORY:
                await lookup
            result = await self._turn(send)
        except BaseException:
            if lookup is not None:
                lookup.cancel()
            raise
        if lookup is not None:
            await lookup
        return result

    def _window_lookup(self) -> asyncio.Task[int] | None:
        """The window lookup, started, when the session does not know the window yet."""
        model = self.settings.model
        measured = self.settings.compaction or self.settings.context_trimming
        if not measured or model in self.session.windows:
            return None
        return asyncio.ensure_future(
            learn_window(self.session.windows, self.model, model, self.ctx.emit, self.locale)
        )

    async def _turn(self, send: Send) -> TurnResult:
        self._unsent = None
        compacted = self._due() and await self.compact("auto")
        trimmed = trim_session(self.session, self.locale, self.ctx.emit, budget=self._budget())
        params = self._unsent if not compacted and not trimmed.cleared else None
        self._unsent = None
        params = params if params is not None else self.params()
        result = await send(params)
        self._calibrate(params, result)
        refused = result.kind == "failed_before_start" and prompt_too_long(result.error)
        if refused and self.settings.compaction and await self.compact("too_long"):
            params = self.params()
            result = await send(params)
            self._calibrate(params, result)
        return result

    def _due(self) -> bool:
        if not self.settings.compaction:
            return False
        raw = history_tokens(self.session.history)
        if raw < self._quiet_until:
            return False
        return raw > self._budget()

    def _budget(self) -> int:
        """The history's budget in estimated tokens: the `contextBudget` setting, or less when
        the model's window (API tokens, as the API said it) leaves less room: its share, through
        the ratio learnt from the last reply, less the tools and the system prompt."""
        window = context_window(self.session.windows, self.settings.model)
        room = int(WINDOW_SHARE * window / self._ratio) - self._fixed_tokens()
        return max(1, min(self.settings.context_budget, room))

    def _fixed_tokens(self) -> int:
        """The tools' and system prompt's estimated tokens, counted on the run's first request.

        That request is kept (`_unsent`) and sent as it is when nothing changed the history
        before it went: building it twice (the environment's lines, the tool schemas) was on
        every run's way to its first request (issue 33)."""
        if self._fixed is None:
            params = self.params()
            fixed = json.dumps([params.get("tools"), params.get("system")], ensure_ascii=False)
            self._fixed = estimate_tokens(fixed)
            self._unsent = params
        return self._fixed

    def _calibrate(self, params: dict[str, Any], result: TurnResult) -> None:
        if result.message is None:
            return
        usage = result.message.usage
        actual = (
            usage.input_tokens
            + (usage.cache_read_input_tokens or 0)
            + (usage.cache_creation_input_tokens or 0)
        )
        estimated = history_tokens(params.get("messages", [])) + self._fixed_tokens()
        if actual > 0 and estimated > 0:
            self._ratio = min(max(actual / estimated, 0.5), 4.0)

    # --- summarising ---

    async def compact(self, reason: Reason) -> bool:
        """Summarise the older turns now; True when the history was compacted.

        A cancel while the summary is being written raises CancelledError with the history
        untouched; every other failure is a notice and False.
        """
        self.failure = None
        history = self.session.history
        budget = self._budget()
        size = history_tokens(history)
        if reason == "too_long":  # any relief helps; keep a quarter of what was refused
            split = choose_split(history, size // 4, minimum=1)
        elif reason == "manual":  # asked for: summarise most of it, whatever the budget
            keep = min(int(budget * KEEP_SHARE), size // 4)
            split = choose_split(history, keep, minimum=MIN_SUMMARISED_TOKENS // 3)
        else:
            minimum = min(MIN_SUMMARISED_TOKENS, budget // 2)
            split = choose_split(history, int(budget * KEEP_SHARE), minimum=minimum)
        if split is None:
            if reason == "manual":
                self._notice("compaction.nothing", tokens=f"{history_tokens(history):,}")
            return False
        self._notice("compaction.started")
        summary = await self._summarise(split, clip=reason == "too_long")
        if summary is None:
            self._quiet_until = size + budget // 4
            return False
        for path in reads_to_forget(history, split.at, self.session.reads, self.session.root):
            self.session.reads.pop(path, None)
        history[:] = compacted(history, split, summary, self.locale)
        after = history_tokens(history)
        self._quiet_until = after + budget // 4
        key = "compaction.done_too_long" if reason == "too_long" else "compaction.done"
        kept = len(history) - 1
        self._notice(key, messages=split.at, before=f"{size:,}", after=f"{after:,}", kept=kept)
        return True

    async def on_demand(self) -> tuple[RunStatus, str]:
        """`kesi.compact`: summarise now; how the short run ends and what it says (a cancel
        raises CancelledError, the history untouched)."""
        if await self.compact("manual"):
            history = self.session.history
            tokens = f"{history_tokens(history):,}"
            message = text("compaction.finished", self.locale, kept=len(history) - 1, tokens=tokens)
            return "done", message
        return ("failed", self.failure) if self.failure else ("done", "")

    async def _summarise(self, split: Split, *, clip: bool) -> str | None:
        """The summary of the messages before the cut, or None (said in a notice)."""
        base = self.params()
        history = self.session.history
        params = summary_params(
            base, history[: split.at], self.locale, caching=self.settings.prompt_caching, clip=clip
        )
        result = await stream_turn(
            self.model,
            params,
            self._pass_notices,
            self.locale,
            idle_timeout=self.settings.stream_idle_timeout,
        )
        self.bill.charge(result, purpose="compaction")
        if result.kind == "cancelled":
            self._notice("compaction.cancelled")
            raise asyncio.CancelledError
        if result.kind != "complete":
            detail = (
                describe_api_error(result.error, self.locale, self.settings.editor)
                if result.error
                else ""
            )
            self._failed(detail)
            return None
        assert result.message is not None
        summary = summary_of(result.message)
        if summary is None:
            self._failed(text("compaction.no_summary", self.locale))
        return summary

    def _failed(self, reason: str) -> None:
        self.failure = text("compaction.failed", self.locale, reason=reason)
        self.ctx.emit(Notice("compaction", self.failure))

    def _pass_notices(self, event: Event) -> None:
        """The summary itself is not streamed to the user; retries and the like are."""
        if not isinstance(event, TextDelta):
            self.ctx.emit(event)

    def _notice(self, key: str, **fields: object) -> None:
        self.ctx.emit(Notice("compaction", text(key, self.locale, **fields)))
