"""`kesi.mcp {uri?}`: the MCP servers of the folder that holds `uri` (else the first folder),
each with where it came from, its state (starting, ready, failed with the reason, needs
authorization) and its tools; `lines` is the listing rendered in the session's locale, which
every client shows as it is (VS Code's quick pick, `:KeSiMcp`, `M-x kesi-mcp`), and which an
editor without a KeSi client gets as a message."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from kesi_lsp.core import mcp_report
from kesi_lsp.lsp.args import read_args
from kesi_lsp.lsp.commands import target
from kesi_lsp.lsp.contract import FolderArgs, McpResult, McpServerView, read
from kesi_lsp.lsp.server import KesiServer
from kesi_lsp.lsp.wire import plain_json_converter

MCP = "kesi.mcp"


def mcp(ls: KesiServer, *args: Any) -> McpResult:
    """The folder's MCP servers (see the module text)."""
    folder, _ = target(ls, read_args(MCP, args, FolderArgs).uri)
    settings = ls.settings_for(folder).settings
    views, lines = mcp_report(ls.host.runtime.mcp, str(folder.path), settings)
    converter = plain_json_converter()
    servers = [read(asdict(view), McpServerView, converter) for view in views]
    if not ls.features.stream:
        ls.show("\n".join(lines))
    return McpResult(servers=servers, lines=lines)


def register(server: KesiServer) -> None:
    server.command(MCP)(mcp)
