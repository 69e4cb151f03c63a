"""What the front ends show about a session's MCP servers (`kesi.mcp`, ACP, the doctor, the
command line): one view per server and the rendered lines, from the running group when there
is one, else from the settings (the servers that have not been started yet)."""

from __future__ import annotations

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.hub import McpHub
from kesi_lsp.core.mcp.view import ServerView
from kesi_lsp.core.mcp.workspace import FolderServers, merged, programs_of
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.mcp_servers import ServerConfig


def mcp_report(
    hub: McpHub, key: str, settings: AgentSettings, workspace: FolderServers | None = None
) -> tuple[list[ServerView], list[str]]:
    """The servers of `key` (a folder, an ACP session) and their lines in the settings' locale,
    then what the folder's `.mcp.json` (`workspace`) declares that is not started: waiting for
    the user's answer, or refused."""
    approved = workspace.approved if workspace is not None else ()
    views, lines = _servers(hub, key, settings, merged(settings.mcp_servers, approved))
    if workspace is None:
        return views, lines
    locale: Locale = settings.locale
    said = [*workspace.problems]
    separator = text("common.list_sep", locale)
    if workspace.pending:
        programs = separator.join(programs_of(workspace.pending, locale))
        said.append(text("mcp.line.workspace_pending", locale, programs=programs))
    if workspace.refused:
        names = separator.join(c.name for c in workspace.refused)
        said.append(text("mcp.line.workspace_refused", locale, names=names))
    if said and not views:
        lines = []
    return views, [*lines, *said]


def _servers(
    hub: McpHub, key: str, settings: AgentSettings, configs: tuple[ServerConfig, ...]
) -> tuple[list[ServerView], list[str]]:
    locale: Locale = settings.locale
    group = hub.group(key)
    if group is None:
        if not configs:
            return [], [text("mcp.line.none", locale)]
        views = [ServerView(c.name, c.source, c.transport, "starting", None, []) for c in configs]
        starting = text("mcp.state.starting", locale, reason="")
        lines = [
            text(
                "mcp.line.server",
                locale,
                name=c.name,
                source=text(f"mcp.source.{c.source}", locale),
                program=c.program_line(),
                state=starting,
            )
            for c in configs
        ]
        return views, lines
    from kesi_lsp.core.mcp.listing import server_lines, server_views

    return server_views(group, locale), server_lines(group, locale)
