"""How many tokens a model's context holds: what a usage meter measures "used" against.

Every Claude model KeSi prices (`kesi_lsp.core.cost.meter.PRICES`) has a 200,000-token context
window by default (the one-million-token window of some models is a beta the API must be asked
for, and KeSi does not ask). An ACP client shows `used / size` from this.
"""

from __future__ import annotations

from typing import Final

CONTEXT_WINDOW: Final = 200_000


def context_window(model: str) -> int:
    """The context window of `model` in tokens (200,000 for every Claude model today)."""
    return CONTEXT_WINDOW
