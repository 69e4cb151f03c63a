"""Every MCP server group of one front end, by key: a workspace folder for the language
server, an ACP session for the ACP adapter.

A group starts as soon as its servers are known (the language server's background preparation
after `initialized`, an ACP `session/new`), never on the path of a request; it is replaced when
its configuration changes and stopped with the front end. Importing this module costs nothing:
the MCP SDK loads only when a group is made, so a KeSi with no servers configured starts as
fast as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.settings.mcp_servers import ServerConfig

if TYPE_CHECKING:
    from kesi_lsp.core.mcp.group import McpGroup

log = logging.getLogger(__name__)


class McpHub:
    """The groups of one front end (see the module text)."""

    def __init__(self) -> None:
        self._groups: dict[str, McpGroup] = {}
        self._stopping: set[asyncio.Task[None]] = set()

    def get(self, key: str) -> McpGroup | None:
        return self._groups.get(key)

    def ensure(
        self,
        key: str,
        configs: Sequence[ServerConfig],
        root: Path,
        sandbox: Sandbox,
        environ: Mapping[str, str],
        locale: Locale,
    ) -> McpGroup | None:
        """The group for `key` running `configs` (started now if it is new or they changed;
        None and nothing running when there are none). Never waits for a server."""
        group = self._groups.get(key)
        if group is not None and group.configs == tuple(configs) and group.root == root:
            return group
        if group is not None:
            self._stop_later(self._groups.pop(key))
        if not configs:
            return None
        from kesi_lsp.core.mcp.group import McpGroup

        group = McpGroup(configs, root, sandbox, environ, locale)
        self._groups[key] = group
        group.start()
        log.info("MCP: starting %s for %s", ", ".join(c.name for c in configs), key)
        return group

    def drop(self, key: str) -> None:
        """Stop the group of `key` (a folder removed, a session gone)."""
        group = self._groups.pop(key, None)
        if group is not None:
            self._stop_later(group)

    def _stop_later(self, group: McpGroup) -> None:
        task = asyncio.ensure_future(group.stop())
        self._stopping.add(task)
        task.add_done_callback(self._stopping.discard)

    async def aclose(self) -> None:
        """Stop every server (the front end is going away)."""
        groups, self._groups = list(self._groups.values()), {}
        await asyncio.gather(*(g.stop() for g in groups), *self._stopping, return_exceptions=True)
