"""The MCP servers an ACP client sends with `session/new`, as KeSi's own server settings.

ACP's shapes (`McpServerStdio` with `env` as a list of name/value pairs, `HttpMcpServer` and
`SseMcpServer` with `headers` likewise) become the common `mcpServers` shape and go through the
one parser the settings use, so a malformed server is left out with the same sentence. They are
the session's own servers (source "acp"), started beside the user's in the background.
"""

from __future__ import annotations

from typing import Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import ServerConfig, parse_servers


def _pairs(items: Any) -> dict[str, str]:
    return {str(getattr(i, "name", "")): str(getattr(i, "value", "")) for i in items or []}


def _entry(server: Any) -> dict[str, object]:
    kind = getattr(server, "type", None)
    if kind in ("http", "sse"):
        return {"type": kind, "url": server.url, "headers": _pairs(server.headers)}
    entry: dict[str, object] = {"command": server.command, "args": list(server.args or [])}
    entry["env"] = _pairs(server.env)
    return entry


def acp_servers(servers: list[Any], locale: Locale) -> tuple[tuple[ServerConfig, ...], list[str]]:
    """The servers of `session/new`, and a sentence for each one left out."""
    value = {str(getattr(s, "name", "") or "?"): _entry(s) for s in servers}
    configs, problems = parse_servers(value, "acp")
    said = [
        text(
            "settings.mcp_server_invalid",
            locale,
            key="session/new mcpServers",
            name=p.name,
            why=text(p.why, locale, detail=p.detail),
        )
        for p in problems
    ]
    return configs, said
