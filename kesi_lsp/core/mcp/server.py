"""One MCP server's life: start in the background, list its tools, call them, come back after
a crash.

The whole connection (transport, the SDK's `ClientSession`) lives in one task, `_life`, since
the SDK's anyio scopes must be left by the task that entered them; calls come from the runs'
tasks and only send requests through the live session. The states are what the user sees
(`kesi.mcp`): starting, ready, failed (with the reason), needs authorization.

- `initialize` and `tools/list` are bounded (`INIT_SECONDS`, `LIST_SECONDS`); a server that
  hangs there fails with that reason, and never holds up a run (a run waits for a server only
  when it calls one of its tools, and then at most `WAIT_SECONDS`).
- A server that fails before it was ever ready is not restarted (a missing program or a bad
  configuration does not fix itself). One that stops after it was ready is restarted with
  back-off (1, 2, 4, 8, 16 s); after `MAX_RESTARTS` crashes in a row it stays failed.
- `notifications/tools/list_changed` lists the tools again in the background; the run picks up
  the new list at its next round (`tools`), never in the middle of a request.
- A call cancelled by the run (the user's cancel) is cancelled in the SDK, which sends
  `notifications/cancelled` to the server.
- A stdio server whose settings allow the network (`"network": true`) reaches it as a
  sandboxed command does: through a channel of the allow-list proxy (`core.network`) that
  lives as long as its connection, judged by `policy` (the user's lists and the session's
  grants). The hosts refused are kept (`refusals`): `kesi.mcp` lists them, and the result of
  the call during which they were refused says so (`new_refusals`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Literal

from kesi_lsp.catalog import Locale
from kesi_lsp.core.mcp.reasons import Failure, why_failed
from kesi_lsp.core.mcp.stdio import ServerOutput
from kesi_lsp.core.network.access import LivePolicy, NetworkAccess
from kesi_lsp.core.network.addresses import resolver_for
from kesi_lsp.core.network.proxy import Channel, ChannelLimits, Refusal
from kesi_lsp.core.sandbox import NetworkBridge, Sandbox
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.mcp_servers import ServerConfig

log = logging.getLogger(__name__)

INIT_SECONDS: Final = 60.0
LIST_SECONDS: Final = 30.0
WAIT_SECONDS: Final = 30.0
MAX_RESTARTS: Final = 5
MAX_TOOL_PAGES: Final = 20
STEADY_SECONDS: Final = 60.0
NETWORK_LIMITS: Final = ChannelLimits(max_connections=1 << 16)
"""A server's channel: a command's bounds, but for a program that runs all day (many more
connections in all; still 64 at once and 8 GB)."""
NETWORK_SECONDS: Final = 30 * 24 * 3600.0

State = Literal["starting", "ready", "failed", "auth", "stopped"]


@dataclass(frozen=True)
class ServerTool:
    """A tool as the server listed it: its name, description and input schema."""

    name: str
    description: str
    input_schema: Mapping[str, Any]


@dataclass(frozen=True)
class CallOutcome:
    """A call's result (the SDK's `CallToolResult`), or the failure that stopped it."""

    result: Any = None
    failure: Failure | None = None


class McpServer:
    """One configured server and its connection (see the module text)."""

    init_seconds: float = INIT_SECONDS
    list_seconds: float = LIST_SECONDS
    wait_seconds: float = WAIT_SECONDS

    def __init__(
        self,
        config: ServerConfig,
        root: Path,
        sandbox: Sandbox,
        environ: Mapping[str, str],
        locale: Locale,
        on_change: Callable[[], None] = lambda: None,
        policy: LivePolicy | None = None,
    ) -> None:
        self.config = config
        self.policy = policy or LivePolicy(AgentSettings())
        self.network_limits = NETWORK_LIMITS
        self._refused: dict[str, Refusal] = {}
        self._told: set[str] = set()
        self._channel: Channel | None = None
        self.root = root
        self.sandbox = sandbox
        self.environ = environ
        self.locale = locale
        self.state: State = "starting"
        self._stopping = False
        self.failure: Failure | None = None
        self.tools: tuple[ServerTool, ...] = ()
        self.restarts = 0
        self._on_change = on_change
        self._session: Any = None
        self._ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._relisting: asyncio.Task[None] | None = None
        self.output = ServerOutput()

    @property
    def name(self) -> str:
        return self.config.name

    def stopping(self) -> bool:
        """Whether `stop` was called (the life task must not come back)."""
        return self._stopping

    def start(self) -> None:
        """Start connecting in the background (the caller never waits for it)."""
        if self._task is None:
            self._task = asyncio.ensure_future(self._life())

    async def stop(self) -> None:
        """Close the connection and stop the program (the server is going away)."""
        self._stopping = True
        self.state = "stopped"
        for task in (self._relisting, self._task):
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._ready.set()

    async def restart(self) -> None:
        """Connect again from the start (a sign-in or sign-out changed what KeSi sends):
        the current connection, if any, is closed first; a stopped server stays stopped."""
        if self._stopping:
            return
        self._stopping = True  # the life task ends instead of coming back by itself
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.state == "stopped":  # `stop` was called meanwhile
            return
        self._stopping = False
        self._session = None
        self.failure = None
        self.restarts = 0
        self.output = ServerOutput()
        self._ready.clear()
        self._set_state("starting")
        self.start()

    async def wait_ready(self) -> bool:
        """Whether the server is ready, waiting at most `wait_seconds` while it starts."""
        if self.state == "starting":
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), self.wait_seconds)
        return self.state == "ready"

    # --- the connection ---

    async def _life(self) -> None:
        crashes = 0
        while not self._stopping:
            began = time.monotonic()
            was_ready, failure = await self._connect_once()
            if self.stopping():
                return
            self._session = None
            self.failure = failure
            if not was_ready or failure.kind == "auth":
                self._set_state("auth" if failure.kind == "auth" else "failed")
                return
            crashes = 1 if time.monotonic() - began > STEADY_SECONDS else crashes + 1
            if crashes > MAX_RESTARTS:
                self.failure = Failure("gave_up", failure.detail, count=crashes - 1)
                self._set_state("failed")
                return
            delay = 2.0 ** (crashes - 1)
            self.failure = Failure("restarting", failure.detail, seconds=delay)
            self._set_state("starting")
            self._ready.clear()
            await asyncio.sleep(delay)
            self.restarts += 1
            self.output = ServerOutput()

    async def _connect_once(self) -> tuple[bool, Failure]:
        """One connection from start to end: (whether it got ready, why it ended)."""
        ready = False
        try:
            async with contextlib.AsyncExitStack() as stack:
                session = await self._open(stack)
                await self._handshake(session)
                ready = True
                await self.output.ended.wait()
                return True, why_failed(None, self, stage="crashed")
        except asyncio.CancelledError:
            if self._stopping:
                raise
            return ready, Failure("stopped")
        except BaseException as exc:  # every way a server can fail is a reason, not a crash
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            return ready, why_failed(exc, self, stage="crashed" if ready else "start")

    async def _open(self, stack: contextlib.AsyncExitStack) -> Any:
        from mcp_types import Implementation

        from kesi_lsp import __version__
        from kesi_lsp.core.mcp.connect import open_http, open_stdio
        from kesi_lsp.core.mcp.tokens import auth_directory
        from mcp import ClientSession

        if self.config.transport == "stdio":
            bridge = await self._way_out(stack)
            opened = open_stdio(
                self.config, self.sandbox, self.environ, self.root, self.output, bridge
            )
        else:
            opened = open_http(self.config, self.output, auth_directory(self.environ))
        read, write = await stack.enter_async_context(opened)
        info = Implementation(name="kesi-lsp", version=__version__)
        session = ClientSession(
            read,  # type: ignore[arg-type]
            write,  # type: ignore[arg-type]
            message_handler=self._on_message,
            client_info=info,
        )
        return await stack.enter_async_context(session)

    async def _way_out(self, stack: contextlib.AsyncExitStack) -> NetworkBridge | None:
        """The proxy's channel for a server whose settings allow the network, closed with the
        connection; None: no network (not asked for, `sandboxNetwork` off, or no sandbox to
        confine it, where it has the machine's network as an unconfined command has)."""
        if not self.config.network:
            return None
        access = NetworkAccess(resolver_for(self.environ), self.network_limits)
        opened = await access.open(self.policy, self.sandbox, seconds=NETWORK_SECONDS)
        if opened is None:
            return None
        self._channel = opened.channel
        stack.push_async_callback(self._close_channel, opened.channel)
        return opened.bridge

    async def _close_channel(self, channel: Channel) -> None:
        for refusal in await channel.close():
            self._refused.setdefault(refusal.host, refusal)
        if self._channel is channel:
            self._channel = None

    def refusals(self) -> list[Refusal]:
        """Every host the proxy refused this server, since it was configured."""
        live = self._channel.refused if self._channel is not None else {}
        return list({**self._refused, **live}.values())

    def new_refusals(self) -> list[Refusal]:
        """The refused hosts not reported yet (now reported)."""
        fresh = [r for r in self.refusals() if r.host not in self._told]
        self._told.update(r.host for r in fresh)
        return fresh

    async def _handshake(self, session: Any) -> None:
        self.stage = "initialize"
        await asyncio.wait_for(session.initialize(), self.init_seconds)
        self.stage = "tools/list"
        tools = await asyncio.wait_for(_list_tools(session), self.list_seconds)
        self._session = session
        self.tools = tools
        self.failure = None
        self._set_state("ready")
        self._ready.set()

    async def _on_message(self, message: object) -> None:
        """The SDK's message handler: a changed tool list, or the transport's errors."""
        from mcp_types import ToolListChangedNotification

        from kesi_lsp.core.mcp.stdio import FloodedError

        if isinstance(message, ToolListChangedNotification):
            if self._relisting is None or self._relisting.done():
                self._relisting = asyncio.ensure_future(self._relist())
        elif isinstance(message, FloodedError):
            self.output.ended.set()

    async def _relist(self) -> None:
        session = self._session
        if session is None:
            return
        try:
            self.tools = await asyncio.wait_for(_list_tools(session), self.list_seconds)
        except Exception as exc:  # the old list stays; the next change tries again
            log.info("MCP server %s: listing its tools again failed: %s", self.name, exc)
            return
        self._on_change()

    def connection_lost(self) -> None:
        """A call saw the connection end: let the life task restart it."""
        self.output.ended.set()

    def _set_state(self, state: State) -> None:
        self.state = state
        self._on_change()

    stage: str = "start"

    # --- calls ---

    async def call(self, tool: str, arguments: dict[str, Any], seconds: float) -> CallOutcome:
        """Call `tool`; a timeout, a lost connection or an error answer is a `Failure`."""
        if not await self.wait_ready():
            return CallOutcome(failure=self.failure or Failure("not_ready"))
        session = self._session
        try:
            result = await asyncio.wait_for(session.call_tool(tool, arguments), seconds)
        except TimeoutError:
            return CallOutcome(failure=Failure("call_timeout", seconds=seconds))
        except Exception as exc:
            failure = why_failed(exc, self, stage="call")
            if failure.kind == "call_crashed":
                self.connection_lost()
            return CallOutcome(failure=failure)
        return CallOutcome(result=result)


async def _list_tools(session: Any) -> tuple[ServerTool, ...]:
    """Every page of `tools/list` (at most `MAX_TOOL_PAGES`), as `ServerTool`s."""
    from mcp_types import PaginatedRequestParams

    tools: list[ServerTool] = []
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        params = PaginatedRequestParams(cursor=cursor) if cursor else None
        page = await session.list_tools(params=params)
        for tool in page.tools:
            schema = tool.input_schema if isinstance(tool.input_schema, dict) else {}
            tools.append(ServerTool(tool.name, tool.description or "", schema))
        cursor = page.next_cursor
        if not cursor:
            break
    return tuple(tools)
