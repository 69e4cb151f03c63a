"""A run's end as the answer to its `session/prompt`.

| the run ended            | `session/prompt` answers                                     |
|--------------------------|--------------------------------------------------------------|
| done                     | `end_turn`                                                   |
| limit: max_turns         | `max_turn_requests` (the turn limit, `KESI_MAX_TURNS`)        |
| limit: max_tokens        | `max_tokens` (the reply was cut off)                          |
| limit: context_window    | `max_tokens` (the conversation no longer fits)                |
| limit: tool_failures     | `end_turn` (KeSi stopped on its own; the notice says why)     |
| limit: repeating         | `end_turn` (the same call kept answering the same)            |
| cancelled                | `cancelled` (`session/cancel`, the seed's Ctrl-C)             |
| failed                   | an error (`RUN_FAILED`): the run's message and what to do     |

The way on (which setting to raise, how to reach the API again) is the core's decision
(`next_step`) in this adapter's words: an ACP client's settings are the agent command's
environment, not an editor's settings page.
"""

from __future__ import annotations

from typing import Final

from acp.schema import PromptResponse, StopReason

from kesi_lsp.acp.errors import run_failed
from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import LimitKind, NextStep, RunFinished, next_step

STOPS: Final[dict[LimitKind, StopReason]] = {
    "max_turns": "max_turn_requests",
    "max_tokens": "max_tokens",
    "context_window": "max_tokens",
    "tool_failures": "end_turn",
    "repeating": "end_turn",
}
HINTS: Final[dict[NextStep, str]] = {
    "missing_key": "acp.hint.missing_key",
    "unreachable": "acp.hint.unreachable",
    "max_turns": "acp.hint.max_turns",
    "max_tokens": "acp.hint.max_tokens",
    "context_window": "acp.hint.context_window",
    "tool_failures": "acp.hint.tool_failures",
    "repeating": "acp.hint.repeating",
}


def hint_for(finished: RunFinished, locale: Locale) -> str | None:
    """What the user can do after `finished`, in an ACP client's terms (None: nothing more)."""
    step = next_step(finished, locale)
    return text(HINTS[step], locale) if step is not None else None


def stop_reason(finished: RunFinished) -> StopReason:
    if finished.status == "cancelled":
        return "cancelled"
    if finished.status == "limit":
        return STOPS[finished.limit or "max_turns"]
    return "end_turn"


def answer(finished: RunFinished, locale: Locale) -> PromptResponse:
    """The prompt's response; a failed run raises its error instead (see the module table)."""
    if finished.status == "failed":
        step = next_step(finished, locale)
        reason = "missingKey" if step == "missing_key" else step or "failed"
        said = text("acp.stopped", locale, text=finished.text)
        raise run_failed(said, reason, hint_for(finished, locale))
    return PromptResponse(stop_reason=stop_reason(finished))
