"""Every message the client sends, routed to `KesiAgent` by the `acp` package's router, with
two changes that keep errors clear and `_meta` in its place.

- `_meta` is taken out of the params before routing and kept for the handler
  (`request_meta()`): the package would otherwise merge it into the handler's arguments, where a
  `_meta.cwd` could stand in for the real `cwd`;
- malformed params become an invalid-params error naming each bad field in words
  (`errors.invalid_params`) instead of pydantic's raw error list, which may not even be JSON.
"""

from __future__ import annotations

import contextvars
from collections.abc import Awaitable, Callable, Mapping
from types import MappingProxyType
from typing import Any

from acp.agent.router import build_agent_router
from pydantic import ValidationError

from kesi_lsp.acp.errors import invalid_params
from kesi_lsp.catalog import Locale

_META: contextvars.ContextVar[Mapping[str, Any]] = contextvars.ContextVar(
    "acp_meta", default=MappingProxyType({})
)

Handler = Callable[[str, Any, bool], Awaitable[Any]]


def request_meta() -> Mapping[str, Any]:
    """The `_meta` of the message being handled (empty when it had none)."""
    return _META.get()


def dispatcher(agent: Any, locale: Callable[[], Locale]) -> Handler:
    """The connection's method handler for `agent`; `locale` says how to word an error."""
    router = build_agent_router(agent)

    async def handle(method: str, params: Any, is_notification: bool) -> Any:
        meta: Mapping[str, Any] = {}
        if isinstance(params, dict):
            found = params.get("_meta")
            meta = found if isinstance(found, dict) else {}
            params = {key: value for key, value in params.items() if key != "_meta"}
        token = _META.set(meta)
        try:
            return await router(method, params, is_notification)
        except ValidationError as exc:
            raise invalid_params(method, exc, locale()) from None
        finally:
            _META.reset(token)

    return handle
