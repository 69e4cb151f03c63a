"""Adapting the scripted editor's methods to pygls' client handlers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


def plain_handler(handler: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """pygls tags handlers with attributes, which bound methods cannot carry."""
    if asyncio.iscoroutinefunction(handler):

        async def async_handler(params: Any) -> Any:
            return await handler(params)

        return async_handler

    def sync_handler(params: Any) -> Any:
        return handler(params)

    return sync_handler
