"""Every message the client sends, routed to `KesiAgent` by the `acp` package's router, with
two changes that keep errors clear and `_meta` in its place.

- `_meta` is taken out of the params before routing and kept for the handler
  (`request_meta()`): the package would otherwise merge it into the handler's arguments, where a
  `_meta.cwd` could stand in for the real `cwd`;
- malformed params become an invalid-params error naming each bad field in words
  (`errors.invalid_params`) instead of pydantic's raw error list, which may not even be JSON.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from acp.agent.router import build_agent_router
from pydantic import ValidationError

from kesi_lsp.acp.errors import invalid_params
from kesi_lsp.catalog import Locale

_META: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "acp_meta", default=MappingProxyType({})
)


def request_meta() -> Mapping[str, Any]:
    """The `_meta` of the message being handled (empty when it had none)."""
    return _META.get()


class Dispatcher:
    """The connection's method handler for `agent`; `locale` says how to word an error.

    It also knows which messages are still being handled, so that when the client closes its
    end (`echo '{...}' | kesi-lsp acp`, or an editor quitting) the answers already under way are
    still sent before the connection closes (`settle`)."""

    def __init__(self, agent: Any, locale: Callable[[], Locale]) -> None:
        self._router = build_agent_router(agent)
        self._locale = locale
        self._handling: set[asyncio.Task[Any]] = set()

    async def __call__(self, method: str, params: Any, is_notification: bool) -> Any:
        meta: Mapping[str, Any] = {}
        if isinstance(params, dict):
            found = params.get("_meta")
            meta = found if isinstance(found, dict) else {}
            params = {key: value for key, value in params.items() if key != "_meta"}
        token = _META.set(meta)
        task = asyncio.current_task()
        if task is not None:
            self._handling.add(task)
        try:
            return await self._router(method, params, is_notification)
        except ValidationError as exc:
            raise invalid_params(method, exc, self._locale()) from None
        finally:
            _META.reset(token)
            if task is not None:
                self._handling.discard(task)

    async def settle(self, seconds: float) -> None:
        """Wait (at most `seconds`) for the messages still being handled to be answered.

        The connection starts a task per message; one made for the last lines read has not
        run yet (it registers itself when it does), so the loop gets one turn first."""
        await asyncio.sleep(0)
        if self._handling:
            await asyncio.wait(set(self._handling), timeout=seconds)
