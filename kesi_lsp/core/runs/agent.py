"""The default agent: the core loop with the Anthropic model client.

This is the one place where a front end's run reaches for the model: it builds the SDK client
from the session's settings and the front end's environment, and turns "no API key" into a
failed run whose message says how to set one (the front end itself keeps running).

The SDK is big: importing it takes a second or more, and building a client loads the system's
certificates (tens to hundreds of milliseconds). Neither may happen at start-up (the editor
waits for `initialize`) nor on the event loop (code actions and `kesi.cost` must stay
instant), so the loop and the model client are loaded in a worker thread, gently
(`kesi_lsp.core.runs.loading`). `CoreAgent` (what the servers use) does it ahead of time: its
`prepare` runs in the background once the editor is connected, so the first "fix this" goes
to the model at once instead of after seconds of loading, and it keeps one model client per
API key and address for the server's life, so a later run reuses its warm HTTP connection
(issue 14: <= 500 ms for a first run, <= 20 ms later).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.errors import MissingApiKeyError
from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.runs.loading import Busy, load_agent, never_busy
from kesi_lsp.core.settings.agent import AgentSettings

if TYPE_CHECKING:
    from kesi_lsp.core.model.anthropic import ModelClient
    from kesi_lsp.core.tools.context import ToolContext  # the tools load with the agent

log = logging.getLogger(__name__)

AgentRunner = Callable[["ToolContext", str], Awaitable[RunFinished]]
"""Runs the agent on a prompt in a prepared context; cancelled with `Task.cancel()`."""


async def run_core_agent(ctx: ToolContext, prompt: str) -> RunFinished:
    """Run the core loop on `prompt`; cancelling the task is the loop's Ctrl-C."""
    return await _with_model(ctx, lambda loop, model: loop.run_agent(ctx, prompt, model))


async def run_core_compaction(ctx: ToolContext, prompt: str) -> RunFinished:
    """`kesi.compact`: summarise the session's older turns now (the prompt is unused)."""
    return await _with_model(ctx, lambda loop, model: loop.compact_now(ctx, model))


async def _with_model(
    ctx: ToolContext, body: Callable[[Any, ModelClient], Awaitable[RunFinished]]
) -> RunFinished:
    loop, model_module = await asyncio.to_thread(load_agent)
    try:
        model: ModelClient = await asyncio.to_thread(
            model_module.build_model, ctx.session.settings, ctx.environ
        )
    except MissingApiKeyError as exc:
        return RunFinished("failed", str(exc), Usage())
    try:
        return await body(loop, model)
    finally:
        try:
            await asyncio.shield(model.aclose())
        except (asyncio.CancelledError, Exception) as exc:  # closing is best effort
            log.debug("closing the model client: %s", exc)


def _client_key(settings: AgentSettings, environ: Mapping[str, str]) -> tuple[str, str]:
    """What makes two model clients the same: the key and the address they talk to."""
    key = settings.api_key or environ.get("ANTHROPIC_API_KEY") or ""
    return key, settings.base_url or environ.get("ANTHROPIC_BASE_URL") or ""


class CoreAgent:
    """The default agent of a server: the core loop, loaded ahead of time (`prepare`), with one
    model client per API key and address kept for the server's life (`aclose` ends them)."""

    def __init__(self) -> None:
        self._loading: asyncio.Task[tuple[Any, Any]] | None = None
        self._models: dict[tuple[str, str], ModelClient] = {}
        self._building: dict[tuple[str, str], asyncio.Task[ModelClient]] = {}
        self._wanted = False  # a run waits for the loading: it no longer steps aside

    async def _modules(self, busy: Busy | None = None) -> tuple[Any, Any]:
        """The loop and model modules, loaded once in a worker thread (runs share the load).

        `busy` is given by a preparation: the loading then steps aside while the editor is busy,
        until a run needs the agent (`busy` None), from which moment it goes at full speed.
        """
        if busy is None:
            self._wanted = True
        if self._loading is None:
            gentle = busy or never_busy
            self._loading = asyncio.ensure_future(
                asyncio.to_thread(load_agent, lambda: not self._wanted and gentle())
            )
        return await asyncio.shield(self._loading)

    async def _model(self, settings: AgentSettings, environ: Mapping[str, str]) -> ModelClient:
        """The model client for these settings (built once, in a worker thread).

        Raises MissingApiKeyError when there is no key (nothing is kept then).
        """
        key = _client_key(settings, environ)
        if key in self._models:
            return self._models[key]
        _, model_module = await self._modules()
        building = self._building.get(key)
        if building is None:
            building = asyncio.ensure_future(
                asyncio.to_thread(model_module.build_model, settings, environ)
            )
            self._building[key] = building
        try:
            model: ModelClient = await asyncio.shield(building)
        finally:
            if building.done():
                self._building.pop(key, None)
        self._models[key] = model
        return model

    async def prepare(
        self, settings: AgentSettings, environ: Mapping[str, str], busy: Busy = never_busy
    ) -> None:
        """Load the agent and build its model client now, so the first run does not wait
        (stepping aside while `busy()`: `kesi_lsp.core.runs.loading`)."""
        await self._modules(busy)
        with contextlib.suppress(MissingApiKeyError):  # the run will say how to set one
            await self._model(settings, environ)

    async def __call__(self, ctx: ToolContext, prompt: str) -> RunFinished:
        """Run the core loop on `prompt`; cancelling the task is the loop's Ctrl-C."""
        return await self._with_model(ctx, lambda loop, model: loop.run_agent(ctx, prompt, model))

    async def compact(self, ctx: ToolContext, prompt: str) -> RunFinished:
        """`kesi.compact` with the kept client (the prompt is unused)."""
        return await self._with_model(ctx, lambda loop, model: loop.compact_now(ctx, model))

    async def _with_model(
        self, ctx: ToolContext, body: Callable[[Any, ModelClient], Awaitable[RunFinished]]
    ) -> RunFinished:
        loop, _ = await self._modules()
        try:
            model = await self._model(ctx.session.settings, ctx.environ)
        except MissingApiKeyError as exc:
            return RunFinished("failed", str(exc), Usage())
        return await body(loop, model)

    async def aclose(self) -> None:
        """Close every model client's connections (the server is going away)."""
        models, self._models = list(self._models.values()), {}
        for model in models:
            try:
                await model.aclose()
            except Exception as exc:  # closing is best effort
                log.debug("closing a model client: %s", exc)
