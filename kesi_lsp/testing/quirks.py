"""What generic clients do that KeSi must live with: the quirks a preset can ask for.

Seen with real clients driven against KeSi (round three's digest, §4): lsp-mode now and then
loses `window/workDoneProgress/create` and never answers it; vim-lsp answers every
`window/showMessageRequest` with null, whatever the user picked. A client that never announced
`experimental.kesi` does not know KeSi's own notifications: lsp-mode shows a *Warnings*
window for each, so one sent to such a client is a violation.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any, Final

from lsprotocol import types

from kesi_lsp.testing.timeline import Timeline

LOST_CREATE = "kesi-test/lostProgressCreate"
"""Recorded in the timeline when the server withdraws a create the client lost (or when the
client is closed with it still unanswered)."""

FLAGGED: Final[Mapping[str, str]] = {
    "kesi/plan": "plan",
    "kesi/tasks": "stream",
    "kesi/verdict": "stream",
    "kesi/hunks": "hunks",
}
"""KeSi's notifications only a client announcing that `experimental.kesi` flag may get."""


def announces_kesi(caps: types.ClientCapabilities) -> bool:
    """Whether `caps` announce `experimental.kesi` (an object, even an empty one)."""
    experimental = caps.experimental
    return isinstance(experimental, dict) and isinstance(experimental.get("kesi"), dict)


def losing_create(timeline: Timeline) -> Callable[[Any], Any]:
    """A `window/workDoneProgress/create` handler that records the request and never
    answers it (lsp-mode's lost request): it waits until the server withdraws it."""

    async def handler(params: Any) -> None:
        timeline.record(types.WINDOW_WORK_DONE_PROGRESS_CREATE, params)
        try:
            await asyncio.Event().wait()
        finally:
            timeline.record(LOST_CREATE, params)

    return handler
