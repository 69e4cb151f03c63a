"""The default agent: the core loop with the Anthropic model client.

This is the one place where a front end's run reaches for the model: it builds the SDK client
from the session's settings and the front end's environment, and turns "no API key" into a
failed run whose message says how to set one (the front end itself keeps running).

The SDK is big: importing it takes a second or more, and building a client loads the system's
certificates (tens to hundreds of milliseconds). Neither may happen at start-up (the editor
waits for `initialize`) nor on the event loop (code actions and `kesi.cost` must stay
instant), so the loop and the model client are loaded in a worker thread when a run needs them.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import importlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from kesi_lsp.core.errors import MissingApiKeyError
from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.meter import Usage
from kesi_lsp.core.tools.context import ToolContext

if TYPE_CHECKING:
    from kesi_lsp.core.model.anthropic import ModelClient

log = logging.getLogger(__name__)

AgentRunner = Callable[[ToolContext, str], Awaitable[RunFinished]]
"""Runs the agent on a prompt in a prepared context; cancelled with `Task.cancel()`."""


@functools.cache
def _agent() -> tuple[Any, Any]:
    """The core loop and model modules (imported on first use, in a worker thread).

    Once they are loaded, everything alive is moved out of the garbage collector's sight
    (`gc.freeze`): with the SDK loaded the server holds ~190,000 long-lived objects, and every
    full collection walks them all while holding the interpreter: 175-255 ms, measured on this
    project's 2-core machine during a glob of 30,000 files (a tool that allocates a lot) — a
    stall the editor feels (issue 9, benchmark 3). Frozen objects are still freed by
    reference counting; only cycles among them would be kept, and import-time objects live
    as long as the server anyway.
    """
    loop = importlib.import_module("kesi_lsp.core.loop")
    model = importlib.import_module("kesi_lsp.core.model.anthropic")
    gc.freeze()
    return loop, model


async def run_core_agent(ctx: ToolContext, prompt: str) -> RunFinished:
    """Run the core loop on `prompt`; cancelling the task is the loop's Ctrl-C."""
    loop, model_module = await asyncio.to_thread(_agent)
    try:
        model: ModelClient = await asyncio.to_thread(
            model_module.build_model, ctx.session.settings, ctx.environ
        )
    except MissingApiKeyError as exc:
        return RunFinished("failed", str(exc), Usage())
    try:
        finished: RunFinished = await loop.run_agent(ctx, prompt, model)
        return finished
    finally:
        try:
            await asyncio.shield(model.aclose())
        except (asyncio.CancelledError, Exception) as exc:  # closing is best effort
            log.debug("closing the model client: %s", exc)
