"""How many tokens a model's context holds, as the API says (seed Day 04).

The seed: 「不用把數字寫死在程式裡，跟 API 問就有」. The Models API (`GET /v1/models/{id}`, the
SDK's `models.retrieve`) reports a model's `max_input_tokens`; KeSi asks it once per model and
session, the first time a run needs the number, and keeps the answer in the session
(`Session.windows`). When the endpoint does not say (an older API, a proxy without it, a model
it does not know, no connection), KeSi uses the value known for every Claude model it prices,
200,000 tokens (the one-million-token window of some models is a beta the API must be asked
for, and KeSi does not ask), and tells the user once. What it learnt is what compaction and
trimming measure the conversation against (`kesi_lsp.core.compaction`, `kesi_lsp.core.trim`),
and what an ACP client's meter shows as the size.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.events import EventSink, Notice

if TYPE_CHECKING:
    from kesi_lsp.core.model.anthropic import ModelClient

CONTEXT_WINDOW: Final = 200_000
"""The known window of every Claude model KeSi prices: the fallback when the API does not say."""

WINDOW_SHARE: Final = 0.85
"""The share of the window a request may fill before the conversation is compacted or trimmed:
the rest is the reply's room and the estimate's error."""


def context_window(windows: Mapping[str, int], model: str) -> int:
    """The window of `model` as the session learnt it (`windows`), else the known value."""
    return windows.get(model, CONTEXT_WINDOW)


async def learn_window(
    windows: dict[str, int],
    client: ModelClient,
    model: str,
    emit: EventSink,
    locale: Locale,
) -> int:
    """The window of `model`: from `windows` when the session knows it, else asked from the
    API once (and kept); when the API does not say, the known value, with a notice."""
    known = windows.get(model)
    if known is not None:
        return known
    asked = await client.model_window(model)
    windows[model] = asked if asked is not None else CONTEXT_WINDOW
    if asked is None:
        tokens = f"{CONTEXT_WINDOW:,}"
        emit(Notice("info", text("loop.window.unknown", locale, model=model, tokens=tokens)))
    return windows[model]
