"""The servers as the user sees them (`kesi.mcp`, `kesi-lsp mcp list`, the doctor): one line
per server (name, where it came from, what it runs, its state with the reason), then its
tools and the tools left out, in the session's words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.offered import offer
from kesi_lsp.core.mcp.reasons import describe
from kesi_lsp.core.mcp.view import ServerView
from kesi_lsp.core.network.words import refused_line

if TYPE_CHECKING:
    from kesi_lsp.core.mcp.group import McpGroup
    from kesi_lsp.core.mcp.server import McpServer


def state_words(server: McpServer, locale: Locale) -> str:
    """ "ready", "starting", "failed: it did not answer initialize within 30 s"..."""
    if server.state in ("failed", "auth") and server.failure is not None:
        reason = describe(server.failure, locale, server.name)
        return text(f"mcp.state.{server.state}", locale, reason=reason)
    said = text(f"mcp.state.{server.state}", locale, reason="")
    if server.state == "starting" and server.failure is not None:
        said += f" ({describe(server.failure, locale, server.name)})"
    return said


def server_lines(group: McpGroup, locale: Locale) -> list[str]:
    """Every server of `group`, in the order configured, with its tools."""
    lines: list[str] = []
    separator = text("common.list_sep", locale)
    for server in group.servers.values():
        config = server.config
        lines.append(
            text(
                "mcp.line.server",
                locale,
                name=server.name,
                source=text(f"mcp.source.{config.source}", locale),
                program=config.program_line(),
                state=state_words(server, locale),
            )
        )
        lines += network_lines(server, locale)
        if server.state != "ready":
            continue
        offered, left_out = offer([(server.name, server.tools)], locale)
        tools = separator.join(t.tool for t in offered) or text("common.none", locale)
        lines.append(text("mcp.line.tools", locale, tools=tools))
        lines += [text("mcp.line.left_out", locale, tool=o.tool, why=o.why) for o in left_out]
    return lines


def network_lines(server: McpServer, locale: Locale) -> list[str]:
    """For a server whose settings allow the network: that it has none when the sandbox's
    network is off, and each host the proxy refused it (never silently)."""
    if not server.config.network:
        return []
    lines = []
    if server.policy.settings.sandbox_network == "off":
        lines.append(text("mcp.line.no_network", locale))
    for refusal in server.refusals():
        lines.append("  " + refused_line(refusal, server.network_limits, locale))
    return lines


def server_views(group: McpGroup, locale: Locale) -> list[ServerView]:
    """Every server of `group` as data, for the clients that draw their own listing."""
    views = []
    for server in group.servers.values():
        reason = None
        if server.failure is not None:
            reason = describe(server.failure, locale, server.name)
        offered, _ = offer([(server.name, server.tools)], locale)
        tools = [t.tool for t in offered] if server.state == "ready" else []
        config = server.config
        views.append(
            ServerView(server.name, config.source, config.transport, server.state, reason, tools)
        )
    return views
