"""Every MCP server group of one front end, by key: a workspace folder for the language
server, an ACP session for the ACP adapter.

A group starts as soon as its servers are known (the language server's background preparation
after `initialized`, an ACP `session/new`), never on the path of a request; it is replaced when
its configuration changes and stopped with the front end. Importing this module costs nothing,
and the MCP SDK (a second or more of imports on a loaded machine) is loaded in a worker thread
the first time a group starts, never on the event loop: a KeSi with no servers configured
starts as fast as before, and one with servers answers the editor while they load and start.
What a run holds is a `McpHandle`: the group once it is there, nothing offered before.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kesi_lsp.catalog import Locale
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.settings.mcp_servers import ServerConfig

if TYPE_CHECKING:  # the tools load with a run, not with the server (benchmark 4)
    from kesi_lsp.core.mcp.group import McpGroup
    from kesi_lsp.core.session import Session
    from kesi_lsp.core.settings.agent import AgentSettings
    from kesi_lsp.core.tools.context import ToolContext
    from kesi_lsp.core.tools.result import ToolResult

log = logging.getLogger(__name__)

PREFIX = "mcp__"


class McpHandle:
    """One key's servers as a run sees them (`tools.context.McpTools`), loading or loaded."""

    def __init__(self, configs: tuple[ServerConfig, ...], root: Path) -> None:
        self.configs = configs
        self.root = root
        self.group: McpGroup | None = None
        self.loaded = asyncio.Event()
        self.session: Session | None = None

    def follow(self, session: Session) -> None:
        """The session whose settings and grants the servers' network follows from now on
        (`network.access.LivePolicy`): the run's, before it starts."""
        self.session = session
        if self.group is not None:
            self.group.policy.follow(session)

    def offered(self) -> tuple[list[dict[str, Any]], list[str]]:
        return self.group.offered() if self.group is not None else ([], [])

    def owns(self, name: str) -> bool:
        return name.startswith(PREFIX)

    async def call(self, name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
        await self.loaded.wait()
        assert self.group is not None
        return await self.group.call(name, tool_input, ctx)

    async def stop(self) -> None:
        await self.loaded.wait()
        if self.group is not None:
            await self.group.stop()


class McpHub:
    """The groups of one front end (see the module text)."""

    def __init__(self) -> None:
        self._handles: dict[str, McpHandle] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._sign_ins: set[asyncio.Future[Any]] = set()

    def get(self, key: str) -> McpHandle | None:
        return self._handles.get(key)

    def group(self, key: str) -> McpGroup | None:
        """The running group of `key`, once loaded (listings)."""
        handle = self._handles.get(key)
        return handle.group if handle is not None else None

    def ensure(
        self,
        key: str,
        configs: Sequence[ServerConfig],
        root: Path,
        sandbox: Sandbox,
        environ: Mapping[str, str],
        locale: Locale,
        settings: AgentSettings | None = None,
    ) -> McpHandle | None:
        """The servers of `key` running `configs` (started now, in the background, if they are
        new or changed; None and nothing running when there are none). Never waits."""
        wanted = tuple(configs)
        handle = self._handles.get(key)
        if handle is not None and handle.configs == wanted and handle.root == root:
            return handle
        if handle is not None:
            self._later(self._handles.pop(key).stop())
        if not wanted:
            return None
        handle = McpHandle(wanted, root)
        self._handles[key] = handle
        self._later(_start(handle, sandbox, environ, locale, settings))
        log.info("MCP: starting %s for %s", ", ".join(c.name for c in wanted), key)
        return handle

    def drop(self, key: str) -> None:
        """Stop the servers of `key` (a folder removed, a session gone)."""
        handle = self._handles.pop(key, None)
        if handle is not None:
            self._later(handle.stop())

    async def restart(self, key: str, name: str) -> None:
        """Connect the server `name` of `key` again (a sign-in or sign-out changed what KeSi
        sends it); nothing when it is not running."""
        group = self.group(key)
        server = group.servers.get(name) if group is not None else None
        if server is not None:
            await server.restart()

    def keep_sign_in(self, work: asyncio.Future[Any]) -> None:
        """A sign-in waiting for the browser: cancelled, not awaited, when the front end goes
        away (it may wait for minutes)."""
        self._sign_ins.add(work)
        work.add_done_callback(self._sign_ins.discard)

    def _later(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def aclose(self) -> None:
        """Stop every server (the front end is going away)."""
        for waiting in list(self._sign_ins):
            waiting.cancel()
        handles, self._handles = list(self._handles.values()), {}
        stops = [h.stop() for h in handles]
        await asyncio.gather(*stops, *self._tasks, return_exceptions=True)


async def _start(
    handle: McpHandle,
    sandbox: Sandbox,
    environ: Mapping[str, str],
    locale: Locale,
    settings: AgentSettings | None,
) -> None:
    """Load the SDK off the event loop, then start the group's servers."""
    try:
        module = await asyncio.to_thread(importlib.import_module, "kesi_lsp.core.mcp.group")
        group = module.McpGroup(
            handle.configs, handle.root, sandbox, environ, locale, settings=settings
        )
        if handle.session is not None:
            group.policy.follow(handle.session)
        handle.group = group
        group.start()
    finally:
        handle.loaded.set()
