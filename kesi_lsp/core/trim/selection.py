"""Which tool results to clear: the rules of trimming, as a pure function of the history.

`plan` returns the results to clear now. Only the results of the tools in `TRIMMABLE_TOOLS`
that are at least `min_tokens` long may go; the newest `keep_recent` results and the ones the
model has not answered yet never do. Superseded results go first, then the oldest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from kesi_lsp.core.trim.calls import (
    UNCHANGED,
    ToolCall,
    history_tokens,
    normalized_path,
    tool_calls,
)

if TYPE_CHECKING:
    from anthropic.types import MessageParam

TRIMMABLE_TOOLS: Final = frozenset({"read_file", "run_command", "grep", "glob", "list_files"})

Reason = Literal["superseded", "budget"]


@dataclass(frozen=True)
class TrimPolicy:
    """The knobs of trimming. `superseded_now`: clear superseded results as soon as they are
    superseded (right when there is no prompt cache to protect)."""

    budget_tokens: int = 50_000
    target_tokens: int = 25_000
    min_tokens: int = 200
    keep_recent: int = 4
    superseded_now: bool = False


@dataclass(frozen=True)
class Cut:
    """One result to clear, and why."""

    use_id: str
    reason: Reason


def supersession_key(call: ToolCall) -> tuple[str, str] | None:
    """Calls with the same key answer the same question; a later one supersedes an earlier.

    read_file is keyed by the (normalised) path and the part read (a later read of another part
    answers another question: Days 06 and 10's ranged reads); the others by their whole input.
    """
    if call.name not in TRIMMABLE_TOOLS:
        return None
    if call.name == "read_file":
        path = normalized_path(call.input.get("file_path"))
        part = f"{call.input.get('offset', '')}:{call.input.get('limit', '')}"
        return ("read_file", path if part == ":" else f"{path}@{part}")
    if call.name == "list_files":
        return ("list_files", normalized_path(call.input.get("path")))
    canonical = json.dumps(dict(call.input), ensure_ascii=False, sort_keys=True)
    return (call.name, canonical)


def superseded(calls: Sequence[ToolCall]) -> set[str]:
    """Ids of results that a later call with the same key replaced.

    A read_file is only replaced by a later read of the same file that succeeded: a failed
    re-read tells the model nothing new about the text it still holds.
    """
    latest: dict[tuple[str, str], str] = {}
    out: set[str] = set()
    for call in calls:
        key = supersession_key(call)
        if key is None or call.result_at is None:
            continue
        if call.name == "read_file" and (call.is_error or call.result_text.startswith(UNCHANGED)):
            continue  # a failed re-read, or an unchanged one, tells the model nothing new
        previous = latest.get(key)
        if previous is not None:
            out.add(previous)
        latest[key] = call.use_id
    return out


def _protected(history: Sequence[MessageParam], calls: Sequence[ToolCall], keep: int) -> set[str]:
    """The newest `keep` results, and every result in the last message (not answered yet)."""
    answered = [c for c in calls if c.result_at is not None]
    kept = {c.use_id for c in answered[-keep:]} if keep > 0 else set()
    last = len(history) - 1
    kept.update(c.use_id for c in answered if c.result_at and c.result_at[0] == last)
    return kept


def _candidates(
    history: Sequence[MessageParam], calls: Sequence[ToolCall], policy: TrimPolicy
) -> list[ToolCall]:
    """The results that may be cleared at all, oldest first."""
    protected = _protected(history, calls, policy.keep_recent)
    return [
        c
        for c in calls
        if c.name in TRIMMABLE_TOOLS
        and c.result_at is not None
        and not c.cleared
        and c.tokens >= policy.min_tokens
        and c.use_id not in protected
    ]


def plan(history: Sequence[MessageParam], policy: TrimPolicy) -> list[Cut]:
    """The results to clear now under `policy` (empty most of the time)."""
    calls = tool_calls(history)
    candidates = _candidates(history, calls, policy)
    stale = superseded(calls)
    total = history_tokens(history)
    if total <= policy.budget_tokens:
        if policy.superseded_now:
            return [Cut(c.use_id, "superseded") for c in candidates if c.use_id in stale]
        return []
    order = [c for c in candidates if c.use_id in stale]
    order += [c for c in candidates if c.use_id not in stale]
    cuts: list[Cut] = []
    for call in order:
        if total <= policy.target_tokens:
            break
        cuts.append(Cut(call.use_id, "superseded" if call.use_id in stale else "budget"))
        total -= call.tokens
    return cuts
