"""The default agent runner: the core loop with the Anthropic model client.

This is the one place where the adapter reaches for the model: it builds the SDK client from
the session's settings and the server's environment, and turns "no API key" into a failed
run whose message says how to set one (the server itself keeps running).
"""

from __future__ import annotations

import importlib
import logging
from typing import Any

from kesi_lsp.catalog import text
from kesi_lsp.core.errors import MissingApiKeyError
from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.meter import Usage
from kesi_lsp.core.tools.context import ToolContext

log = logging.getLogger(__name__)


async def run_core_agent(ctx: ToolContext, prompt: str) -> RunFinished:
    """Run the core loop on `prompt`; cancellation is the loop's Ctrl-C."""
    locale = ctx.session.settings.locale
    loop: Any = importlib.import_module("kesi_lsp.core.loop")
    model_module: Any = importlib.import_module("kesi_lsp.core.model.anthropic")
    try:
        model = model_module.build_model(ctx.session.settings, ctx.environ)
    except MissingApiKeyError:
        return RunFinished("failed", text("lsp.no_api_key", locale), Usage())
    finished: RunFinished = await loop.run_agent(ctx, prompt, model)
    return finished
