"""The agent runner of every front end: the core loop with the Anthropic model client.

This is the one place where a run reaches for the model: it builds the SDK client from the
session's settings and the front end's environment, and turns "no API key" into a failed run
whose message says how to set one (the front end itself keeps running). The language server and
the ACP adapter both run through one `CoreAgent` (held by their `Runtime`).

The SDK is big: importing it takes a second or more, and building a client loads the system's
certificates (tens to hundreds of milliseconds). Neither may happen at start-up (the editor
waits for `initialize`) nor on the event loop (code actions and `kesi.cost` must stay
instant), so the agent and its model client are loaded in a worker thread, gently, through the
one lazy seam (`kesi_lsp.core.runs.loading`: `load_agent` and its `LoadedAgent` Protocol).
`prepare` does it ahead of time (the language server calls it in the background once the
editor is connected), so the first "fix this" goes to the model at once instead of after
seconds of loading; and one model client per API key and address is kept for the runtime's
life, so a later run reuses its warm HTTP connection (issue 14: <= 500 ms for a first run,
<= 20 ms later).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING

from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.errors import MissingApiKeyError
from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.runs.loading import Busy, LoadedAgent, load_agent, never_busy
from kesi_lsp.core.settings.agent import AgentSettings

if TYPE_CHECKING:
    from kesi_lsp.core.model.anthropic import ModelClient
    from kesi_lsp.core.tools.context import ToolContext  # the tools load with the agent

log = logging.getLogger(__name__)

AgentRunner = Callable[["ToolContext", str], Awaitable[RunFinished]]
"""Runs the agent on a prompt in a prepared context; cancelled with `Task.cancel()`."""


def _client_key(settings: AgentSettings, environ: Mapping[str, str]) -> tuple[str, str]:
    """What makes two model clients the same: the key and the address they talk to."""
    key = settings.api_key or environ.get("ANTHROPIC_API_KEY") or ""
    return key, settings.base_url or environ.get("ANTHROPIC_BASE_URL") or ""


class CoreAgent:
    """The agent runner of a front end: the core loop, loaded once (ahead of time with
    `prepare`), with one model client per API key and address kept until `aclose`."""

    def __init__(self) -> None:
        self._loading: asyncio.Task[LoadedAgent] | None = None
        self._models: dict[tuple[str, str], ModelClient] = {}
        self._building: dict[tuple[str, str], asyncio.Task[ModelClient]] = {}
        self._wanted = False  # a run waits for the loading: it no longer steps aside

    async def _agent(self, busy: Busy | None = None) -> LoadedAgent:
        """The agent, loaded once in a worker thread (runs share the load).

        `busy` is given by a preparation: the loading then steps aside while the editor is busy,
        until a run needs the agent (`busy` None), from which moment it goes at full speed.
        """
        if busy is None:
            self._wanted = True
        if self._loading is None:
            gentle = busy or never_busy
            self._loading = asyncio.ensure_future(
                asyncio.to_thread(
                    load_agent, lambda: not self._wanted and gentle(), lambda: self._wanted
                )
            )
        return await asyncio.shield(self._loading)

    async def _model(self, settings: AgentSettings, environ: Mapping[str, str]) -> ModelClient:
        """The model client for these settings (built once, in a worker thread).

        Raises MissingApiKeyError when there is no key (nothing is kept then).
        """
        key = _client_key(settings, environ)
        if key in self._models:
            return self._models[key]
        agent = await self._agent()
        building = self._building.get(key)
        if building is None:
            building = asyncio.ensure_future(
                asyncio.to_thread(agent.build_model, settings, environ)
            )
            self._building[key] = building
        try:
            model = await asyncio.shield(building)
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
        await self._agent(busy)
        with contextlib.suppress(MissingApiKeyError):  # the run will say how to set one
            await self._model(settings, environ)

    async def __call__(self, ctx: ToolContext, prompt: str) -> RunFinished:
        """Run the core loop on `prompt`; cancelling the task is the loop's Ctrl-C."""
        return await self._with_model(ctx, lambda agent, model: agent.run_agent(ctx, prompt, model))

    async def compact(self, ctx: ToolContext, prompt: str) -> RunFinished:
        """`kesi.compact` with the kept client (the prompt is unused)."""
        return await self._with_model(ctx, lambda agent, model: agent.compact_now(ctx, model))

    async def _with_model(
        self,
        ctx: ToolContext,
        body: Callable[[LoadedAgent, ModelClient], Awaitable[RunFinished]],
    ) -> RunFinished:
        agent = await self._agent()
        try:
            model = await self._model(ctx.session.settings, ctx.environ)
        except MissingApiKeyError as exc:
            return RunFinished("failed", str(exc), Usage())
        return await body(agent, model)

    async def aclose(self) -> None:
        """Close every model client's connections (the front end is going away)."""
        models, self._models = list(self._models.values()), {}
        for model in models:
            try:
                await model.aclose()
            except Exception as exc:  # closing is best effort
                log.debug("closing a model client: %s", exc)
