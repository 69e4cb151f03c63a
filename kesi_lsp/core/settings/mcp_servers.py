"""The `mcpServers` setting: which MCP servers a session may start, in the common shape.

The shape is the one `.mcp.json` and Claude Desktop use, so a user can paste what they have:

    {"time": {"command": "uvx", "args": ["mcp-server-time"], "env": {"TZ": "UTC"}},
     "docs": {"type": "http", "url": "https://example.com/mcp",
              "headers": {"Authorization": "Bearer ..."}}}

KeSi adds two keys of its own for stdio servers, both about the sandbox they run in:
`"network": true` lets the server reach the network (off by default, like commands), and
`"workspace": "read"` mounts the workspace read-only (writable by default, like commands).

Pure data and the standard library (like `permission_rules.py`): the settings are parsed at
start, long before the MCP SDK is needed, so nothing here may import it. Each malformed entry
is left out with the catalog word for what is wrong; the other servers stay.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal

Transport = Literal["stdio", "http", "sse"]
TRANSPORTS: Final[dict[str, Transport]] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamableHttp": "http",
    "sse": "sse",
}
SERVER_NAME: Final = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
STDIO_KEYS: Final = frozenset({"type", "command", "args", "env", "network", "workspace"})
HTTP_KEYS: Final = frozenset({"type", "url", "headers"})
MAX_SERVERS: Final = 50


@dataclass(frozen=True)
class ServerConfig:
    """One MCP server as configured. `source` says where it came from: "user" (user settings),
    "init" (the editor's initialization options), "acp" (the ACP client's `session/new`) or
    "workspace" (the folder's `.mcp.json`, once approved)."""

    name: str
    transport: Transport
    source: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    url: str = ""
    headers: tuple[tuple[str, str], ...] = ()
    network: bool = False
    read_only: bool = False

    def program_line(self) -> str:
        """The program it starts, as a user would type it (for prompts and listings)."""
        if self.transport != "stdio":
            return self.url
        import shlex

        return shlex.join([self.command, *self.args])


@dataclass(frozen=True)
class ServerProblem:
    """A server left out: its name as written, the catalog key saying why, and the detail."""

    name: str
    why: str
    detail: str = ""


def parse_servers(
    value: object, source: str
) -> tuple[tuple[ServerConfig, ...], list[ServerProblem]]:
    """Read an `mcpServers` value (or a whole `.mcp.json` object holding one)."""
    if isinstance(value, Mapping) and isinstance(value.get("mcpServers"), Mapping):
        value = value["mcpServers"]
    if not isinstance(value, Mapping):
        return (), [ServerProblem("mcpServers", "mcp.config.not_object")]
    servers: list[ServerConfig] = []
    problems: list[ServerProblem] = []
    for name, entry in list(value.items())[:MAX_SERVERS]:
        parsed = server_config(str(name), entry, source)
        if isinstance(parsed, ServerConfig):
            servers.append(parsed)
        else:
            problems.append(parsed)
    return tuple(servers), problems


def server_config(name: str, entry: object, source: str) -> ServerConfig | ServerProblem:
    """One entry of the setting, or why it cannot be used."""
    if not SERVER_NAME.match(name):
        return ServerProblem(name, "mcp.config.bad_name")
    if not isinstance(entry, Mapping):
        return ServerProblem(name, "mcp.config.entry_not_object")
    raw_type = entry.get("type", "stdio" if "command" in entry else "http")
    transport = TRANSPORTS.get(raw_type) if isinstance(raw_type, str) else None
    if transport is None:
        return ServerProblem(name, "mcp.config.unknown_transport", str(raw_type))
    if transport == "stdio":
        return _stdio(name, entry, source)
    return _http(name, transport, entry, source)


def _unknown(entry: Mapping[str, object], known: frozenset[str]) -> str:
    return ", ".join(sorted(str(k) for k in entry if k not in known))


def _stdio(name: str, entry: Mapping[str, object], source: str) -> ServerConfig | ServerProblem:
    command, args, env = entry.get("command"), entry.get("args", []), entry.get("env", {})
    if not isinstance(command, str) or not command.strip():
        return ServerProblem(name, "mcp.config.no_command")
    if not isinstance(args, list) or not all(isinstance(a, str) for a in args):
        return ServerProblem(name, "mcp.config.bad_args")
    pairs = _string_pairs(env)
    if pairs is None:
        return ServerProblem(name, "mcp.config.bad_env")
    network, workspace = entry.get("network", False), entry.get("workspace", "write")
    if not isinstance(network, bool):
        return ServerProblem(name, "mcp.config.bad_network")
    if workspace not in ("write", "read"):
        return ServerProblem(name, "mcp.config.bad_workspace")
    if unknown := _unknown(entry, STDIO_KEYS):
        return ServerProblem(name, "mcp.config.unknown_keys", unknown)
    return ServerConfig(
        name,
        "stdio",
        source,
        command=command.strip(),
        args=tuple(args),
        env=pairs,
        network=network,
        read_only=workspace == "read",
    )


def _http(
    name: str, transport: Transport, entry: Mapping[str, object], source: str
) -> ServerConfig | ServerProblem:
    url = entry.get("url")
    if not isinstance(url, str) or not url.startswith(("http://", "https://")):
        return ServerProblem(name, "mcp.config.bad_url")
    headers = _string_pairs(entry.get("headers", {}))
    if headers is None:
        return ServerProblem(name, "mcp.config.bad_headers")
    if unknown := _unknown(entry, HTTP_KEYS):
        return ServerProblem(name, "mcp.config.unknown_keys", unknown)
    return ServerConfig(name, transport, source, url=url, headers=headers)


def _string_pairs(value: object) -> tuple[tuple[str, str], ...] | None:
    """An object of text values as sorted pairs, or None when it is not one."""
    if not isinstance(value, Mapping):
        return None
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        return None
    return tuple(sorted((str(k), str(v)) for k, v in value.items()))
