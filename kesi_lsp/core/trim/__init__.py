"""Context trimming: old, large tool results give way to short placeholders.

Every request resends the whole history (Day 18: the input sent over eight questions was 10.7
times the last request's), and the bulk of a long session is tool output the model has already
used: file contents, command output, search results. Claude Code "clears older tool outputs
first" as the context fills; KeSi does the same, by rules simple enough to test:

- **What** may be cleared: the result of read_file, run_command, grep, glob or list_files that
  is at least `min_tokens` long. Its `tool_result` block stays where it is, with its
  `tool_use_id` and `is_error`, so the pairing a strict Messages API checks stays valid; only its
  text becomes a placeholder that says what was there and how to get it again. The newest
  `keep_recent` results, and the results the model has not answered yet, are never cleared.
- **Superseded** results: an older read_file of a file that was read again later (and that
  read succeeded), or an older call of the same search or command with the same input.
- **Budget**: when the history's estimated size passes `budget_tokens`, results are cleared,
  superseded ones first, then the oldest, until it is below `target_tokens`. The budget is the
  `contextBudget` setting, or less when the model's window (as the API said it,
  `kesi_lsp.core.model.window`) leaves less room.
- **Read records stay honest**: clearing the latest read of a file removes the file's read
  record (`session.reads`), so write_file must read it again; the placeholder says so.

When to trim is decided with prompt caching in mind. A cleared block changes the prefix from
that block on, so the next request writes the rest of the history to the cache again (1.25 x)
instead of reading it (0.1 x). Clearing on every request would destroy the cache; clearing a
few hundred superseded tokens costs more than it saves. So with caching on, superseded results
wait until the budget is passed, and then everything worth clearing goes in one batch, down to
half the budget: the cache is rebuilt once and stays valid for many requests. Without caching
there is nothing to protect, and superseded results are cleared as soon as they are superseded.
Placeholders depend only on what they replace, and a cleared block is never touched again, so
the prefix stays byte-identical between trims.

The package: `calls.py` reads the history (tool calls, their results, sizes), `selection.py`
decides what to clear (`plan`), `placeholders.py` words what replaces it, `clearing.py` applies
a plan in place (`apply`). All of that is pure but `apply`; this module holds the session-level
part: the policy for a session's settings, and `trim_session`, which the loop calls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.events import EventSink, Notice, discard
from kesi_lsp.core.trim.calls import (
    PLACEHOLDER_MARK,
    ToolCall,
    block_tokens,
    estimate_tokens,
    history_tokens,
    iter_cleared,
    result_text,
    tool_calls,
)
from kesi_lsp.core.trim.clearing import TrimReport, apply
from kesi_lsp.core.trim.placeholders import placeholder
from kesi_lsp.core.trim.selection import (
    TRIMMABLE_TOOLS,
    Cut,
    Reason,
    TrimPolicy,
    plan,
    superseded,
    supersession_key,
)

if TYPE_CHECKING:
    from kesi_lsp.core.session import Session

__all__ = [
    "PLACEHOLDER_MARK",
    "TRIMMABLE_TOOLS",
    "Cut",
    "Reason",
    "ToolCall",
    "TrimPolicy",
    "TrimReport",
    "apply",
    "block_tokens",
    "estimate_tokens",
    "history_tokens",
    "iter_cleared",
    "placeholder",
    "plan",
    "policy_for",
    "result_text",
    "superseded",
    "supersession_key",
    "tool_calls",
    "trim_session",
]


def policy_for(*, prompt_caching: bool, budget_tokens: int) -> TrimPolicy:
    """The policy for a session's settings: half the budget is the target after a trim."""
    return TrimPolicy(
        budget_tokens=budget_tokens,
        target_tokens=budget_tokens // 2,
        superseded_now=not prompt_caching,
    )


def trim_session(
    session: Session, locale: Locale, emit: EventSink = discard, *, budget: int | None = None
) -> TrimReport:
    """Trim `session`'s history before a request, as its settings say (off: nothing).

    The loop calls this once before every request; most calls find nothing to do. When results
    were cleared, `emit` gets a notice saying how many and about how many tokens, so the user
    is not left wondering why the model asks for a file again. (`policy_for` and `apply` are
    looked up in this module, so the token benchmark can count and vary trims.) `budget` is
    the history's budget in estimated tokens (default: the `contextBudget` setting); the loop
    passes less when the model's window leaves less room (`kesi_lsp.core.compaction`).
    """
    settings = session.settings
    if not settings.context_trimming:
        return TrimReport()
    budget = settings.context_budget if budget is None else budget
    policy = policy_for(prompt_caching=settings.prompt_caching, budget_tokens=budget)
    cuts = plan(session.history, policy)
    if not cuts:
        return TrimReport()
    report = apply(session.history, session.reads, session.root, cuts, locale)
    if report.cleared:
        saved = report.tokens_before - report.tokens_after
        emit(
            Notice(
                "info",
                text("loop.trim.notice", locale, count=len(report.cleared), tokens=f"{saved:,}"),
            )
        )
    return report
