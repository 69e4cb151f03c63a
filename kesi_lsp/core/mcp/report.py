"""What the front ends show about a session's MCP servers (`kesi.mcp`, ACP, the doctor, the
command line): one view per server and the rendered lines, from the running group when there
is one, else from the settings (the servers that have not been started yet)."""

from __future__ import annotations

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.hub import McpHub
from kesi_lsp.core.mcp.view import ServerView
from kesi_lsp.core.settings.agent import AgentSettings


def mcp_report(
    hub: McpHub, key: str, settings: AgentSettings
) -> tuple[list[ServerView], list[str]]:
    """The servers of `key` (a folder, an ACP session) and their lines in the settings' locale."""
    locale: Locale = settings.locale
    group = hub.group(key)
    if group is None:
        if not settings.mcp_servers:
            return [], [text("mcp.line.none", locale)]
        views = [
            ServerView(c.name, c.source, c.transport, "starting", None, [])
            for c in settings.mcp_servers
        ]
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
            for c in settings.mcp_servers
        ]
        return views, lines
    from kesi_lsp.core.mcp.listing import server_lines, server_views

    return server_views(group, locale), server_lines(group, locale)
