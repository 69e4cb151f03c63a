"""What a run's end leaves the user to do: the kind of way on, the same for every front end.

A front end says it in its own words ("raise kesi.maxTurns" in an editor's settings, "raise
KESI_MAX_TURNS" in an ACP client's agent command), but which way on a run's end calls for is
decided once, here. The loop's words for "cannot reach the API" describe the failure but not
the way out, and a limit says where it stopped but not how to go on; each limit has its own
way on: raising the turn limit does nothing for a reply cut off at max_tokens, and nothing but a
fresh conversation helps once the context window is full. A missing API key is named too, so a
front end can answer it as what it is (the run's own message already says how to set one).
"""

from __future__ import annotations

from typing import Final, Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.events import RunFinished

NextStep = Literal[
    "missing_key",
    "unreachable",
    "max_turns",
    "max_tokens",
    "context_window",
    "tool_failures",
    "repeating",
]

_UNREACHABLE: Final = ("loop.api.connection", "loop.api.connection_lost", "loop.api.timeout")


def next_step(finished: RunFinished, locale: Locale) -> NextStep | None:
    """The way on after `finished` (None: nothing beyond what the run's message says)."""
    if finished.status == "limit":
        return finished.limit or "max_turns"
    if finished.status != "failed":
        return None
    if finished.text == text("loop.missing_key", locale):
        return "missing_key"
    for key in _UNREACHABLE:
        prefix = text(key, locale).split("{", 1)[0]
        if finished.text.startswith(prefix):
            return "unreachable"
    return None
