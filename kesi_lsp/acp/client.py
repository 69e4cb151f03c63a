"""The ACP client as KeSi calls it: session updates in order, and requests after them.

The core reports a run synchronously, event by event; `session/update` notifications go out
through one queue in exactly that order (`Outbox`), and a request to the client
(`session/request_permission`, `fs/*`) waits until every update before it was sent, so a
permission question never arrives before the tool call it is about. A prompt's answer waits for
the queue too: ACP wants every update of a turn sent before the turn's `session/prompt`
response.

What the client can do is learnt once, from `initialize` (`ClientFeatures`). KeSi never uses
`terminal/*`, whatever the client offers: commands run in KeSi's own sandbox and gate.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any, Final

from acp import RequestError
from acp.connection import Connection
from acp.meta import CLIENT_METHODS
from acp.schema import (
    ClientCapabilities,
    Implementation,
    PermissionOption,
    ReadTextFileRequest,
    ReadTextFileResponse,
    RequestPermissionRequest,
    RequestPermissionResponse,
    SessionNotification,
    ToolCallUpdate,
    WriteTextFileRequest,
)
from pydantic import BaseModel, ValidationError

log = logging.getLogger(__name__)

SESSION_UPDATE: Final = CLIENT_METHODS["session_update"]


class ClientGoneError(ConnectionError):
    """The client closed the connection (or answered something that is not an answer)."""


@dataclass(frozen=True)
class ClientFeatures:
    """What the client announced in `initialize`."""

    read_text_file: bool = False
    write_text_file: bool = False
    terminal: bool = False  # announced, and never used: see the module docstring
    name: str = "?"

    @classmethod
    def from_initialize(
        cls, capabilities: ClientCapabilities | None, info: Implementation | None
    ) -> ClientFeatures:
        fs = capabilities.fs if capabilities is not None else None
        return cls(
            read_text_file=bool(fs and fs.read_text_file),
            write_text_file=bool(fs and fs.write_text_file),
            terminal=bool(capabilities and capabilities.terminal),
            name=f"{info.name} {info.version}" if info is not None else "?",
        )


def dump(model: BaseModel) -> dict[str, Any]:
    """A model as the wire spells it (camelCase, unset fields left out)."""
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


class Outbox:
    """`session/update` notifications, sent one at a time in the order they were put."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._pump: asyncio.Task[None] | None = None
        self.closed = False

    def put(self, session_id: str, update: BaseModel) -> None:
        notification = SessionNotification(session_id=session_id, update=update)  # type: ignore[arg-type]
        payload = dump(notification)
        if self.closed:
            return
        self._queue.put_nowait(payload)
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._run(), name="acp-outbox")

    async def flush(self) -> None:
        """Wait until everything put so far was sent (or the client went away)."""
        await self._queue.join()

    async def _run(self) -> None:
        while not self._queue.empty():
            payload = self._queue.get_nowait()
            try:
                if not self.closed:
                    await self._conn.send_notification(SESSION_UPDATE, payload)
            except (ConnectionError, OSError) as exc:
                log.info("the client went away; dropping session updates: %s", exc)
                self.closed = True
            finally:
                self._queue.task_done()


class AcpClient:
    """The calls KeSi makes to the client, for every session of one connection."""

    def __init__(self, conn: Connection, features: ClientFeatures | None = None) -> None:
        self.conn = conn
        self.features = features or ClientFeatures()
        self.outbox = Outbox(conn)

    def update(self, session_id: str, update: BaseModel) -> None:
        self.outbox.put(session_id, update)

    async def _request(self, method: str, params: BaseModel) -> Any:
        await self.outbox.flush()
        try:
            return await self.conn.send_request(method, dump(params))
        except ConnectionError as exc:  # the connection closed under the request
            raise ClientGoneError(str(exc)) from exc

    async def request_permission(
        self, session_id: str, tool_call: ToolCallUpdate, options: list[PermissionOption]
    ) -> RequestPermissionResponse:
        """The user's answer; raises RequestError, ClientGoneError or ValidationError."""
        params = RequestPermissionRequest(
            session_id=session_id, tool_call=tool_call, options=options
        )
        answer = await self._request(CLIENT_METHODS["session_request_permission"], params)
        return RequestPermissionResponse.model_validate(answer)

    async def read_text_file(self, session_id: str, path: str) -> str:
        """The text the editor has for `path` (unsaved changes included)."""
        params = ReadTextFileRequest(session_id=session_id, path=path)
        answer = await self._request(CLIENT_METHODS["fs_read_text_file"], params)
        try:
            return ReadTextFileResponse.model_validate(answer).content
        except ValidationError as exc:
            raise RequestError(-32603, f"fs/read_text_file answered {answer!r}") from exc

    async def write_text_file(self, session_id: str, path: str, content: str) -> None:
        params = WriteTextFileRequest(session_id=session_id, path=path, content=content)
        await self._request(CLIENT_METHODS["fs_write_text_file"], params)

    async def close(self) -> None:
        self.outbox.closed = True
        with contextlib.suppress(Exception):
            await self.conn.close()
