"""Talking to the client without ever crashing on it.

A run lives in the background while the user may close the editor at any moment. Every
message the adapter sends goes through `Wire`: a notification to a client that is gone is
dropped (and logged), and a request whose answer we stop waiting for (the run was cancelled)
is withdrawn with `$/cancelRequest` while its late answer, if any, lands harmlessly.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import uuid
from typing import Any

import cattrs
from lsprotocol import types
from lsprotocol.converters import get_converter
from pygls.protocol import (
    JsonRPCNotification,
    JsonRPCProtocol,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
)

from kesi_lsp.lsp.contract import CLASSES
from kesi_lsp.lsp.contract.shape import register

log = logging.getLogger(__name__)


@functools.cache
def plain_json_converter() -> cattrs.Converter:
    """pygls' converter, except that untyped messages keep their JSON as plain dicts.

    pygls turns the params and results of methods it does not know (`kesi/reviewEdit`
    answers, custom notifications) into namedtuples, renaming keys that are not identifiers;
    the adapter wants the JSON exactly as sent.

    One per process: cattrs writes each type's reading code on its first use, per converter
    (about 0.1 s for `initialize`'s params here), and nothing registers hooks after this.
    A `kesi-lsp` process serves one editor; the in-process test servers share it.
    """
    converter = get_converter()

    def keep(obj: dict[str, Any], cls: type[Any]) -> Any:
        return cls(**obj)

    for message in (JsonRPCRequestMessage, JsonRPCResponseMessage, JsonRPCNotification):
        converter.register_structure_hook(message, keep)
    register(converter, CLASSES)  # the `kesi/*` payloads, camelCase both ways
    return converter


class ClientGoneError(Exception):
    """The client cannot answer any more (it shut down, exited or closed the connection)."""


def _consume(future: asyncio.Future[Any]) -> None:
    """Retrieve a late answer's outcome so asyncio does not warn about it."""
    if not future.cancelled():
        future.exception()


class Wire:
    """Send notifications and requests to the client on behalf of background runs."""

    def __init__(self, protocol: JsonRPCProtocol) -> None:
        self._protocol = protocol
        self.closed = False

    def notify(self, method: str, params: object) -> None:
        if self.closed:
            log.debug("client gone, dropping %s", method)
            return
        try:
            self._protocol.notify(method, params)
        except (OSError, ValueError) as exc:  # broken pipe, closed stdout
            log.warning("could not send %s: %s", method, exc)
            self.closed = True

    async def request(self, method: str, params: object) -> Any:
        """Send a request and wait for its answer; errors from the client are raised.

        Raises ClientGoneError when the client can no longer answer. When the calling task is
        cancelled, the request is withdrawn and CancelledError propagates.
        """
        if self.closed:
            raise ClientGoneError(method)
        msg_id = f"kesi-{uuid.uuid4().hex}"
        try:
            pending = asyncio.wrap_future(
                self._protocol.send_request(method, params, msg_id=msg_id)
            )
        except (OSError, ValueError) as exc:
            self.closed = True
            raise ClientGoneError(method) from exc
        try:
            return await asyncio.shield(pending)
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                pending.add_done_callback(_consume)
                self.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
                raise
            # pygls drops pending requests when the client asks to shut down.
            raise ClientGoneError(method) from None
