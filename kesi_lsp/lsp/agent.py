"""The default agent runner: the core loop with the Anthropic model client.

This is the one place where the adapter reaches for the model: it builds the SDK client from
the session's settings and the server's environment, and turns "no API key" into a failed
run whose message says how to set one (the server itself keeps running).
"""

from __future__ import annotations

import asyncio
import logging

from kesi_lsp.core.errors import MissingApiKeyError
from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.loop import run_agent
from kesi_lsp.core.meter import Usage
from kesi_lsp.core.model.anthropic import build_model
from kesi_lsp.core.tools.context import ToolContext

log = logging.getLogger(__name__)


async def run_core_agent(ctx: ToolContext, prompt: str) -> RunFinished:
    """Run the core loop on `prompt`; cancelling the task is the loop's Ctrl-C."""
    try:
        model = build_model(ctx.session.settings, ctx.environ)
    except MissingApiKeyError as exc:
        return RunFinished("failed", str(exc), Usage())
    try:
        return await run_agent(ctx, prompt, model)
    finally:
        try:
            await asyncio.shield(model.aclose())
        except (asyncio.CancelledError, Exception) as exc:  # closing is best effort
            log.debug("closing the model client: %s", exc)
