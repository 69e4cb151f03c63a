"""`kesi.mcpLogin {server, uri?}` and `kesi.mcpLogout {server, uri?}`: sign in to (or out of)
a remote MCP server of the folder that holds `uri` (else the first folder) with OAuth.

`kesi.mcpLogin` answers as soon as the address to open is known: `lines` say what to do and
carry the address, and a client that can open a browser (`window.showDocument.support`) is
asked to (`external: true`). The browser's round trip goes on in the background: when it ends,
a message says so (signed in, or why not) and the server is connected again with its tokens.
`kesi.mcpLogout` deletes the tokens and connects the server again, which then says that it
needs sign-in. An editor without a KeSi client gets `lines` as a message too.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from lsprotocol import types

from kesi_lsp.core import ServerConfig
from kesi_lsp.lsp.args import read_args
from kesi_lsp.lsp.commands import target
from kesi_lsp.lsp.contract import McpAccountArgs, McpAccountResult
from kesi_lsp.lsp.folders import Folder
from kesi_lsp.lsp.server import KesiServer

log = logging.getLogger(__name__)

LOGIN = "kesi.mcpLogin"
LOGOUT = "kesi.mcpLogout"


def _servers(ls: KesiServer, folder: Folder) -> tuple[str, list[ServerConfig]]:
    """The key of the folder's servers and their configurations (as running, else as set)."""
    key = str(folder.path)
    handle = ls.host.runtime.mcp.get(key)
    if handle is not None:
        return key, list(handle.configs)
    return key, list(ls.settings_for(folder).settings.mcp_servers)


async def mcp_login_command(ls: KesiServer, *args: Any) -> McpAccountResult:
    """Begin signing in (see the module text)."""
    from kesi_lsp.core import mcp_login  # here: it loads the MCP SDK, which start-up must not

    wanted = read_args(LOGIN, args, McpAccountArgs)
    folder, _ = target(ls, wanted.uri)
    locale = ls.locale_for(folder)
    key, configs = _servers(ls, folder)
    runtime = ls.host.runtime
    outcome = await mcp_login(configs, wanted.server, runtime.environ, locale)
    if outcome.url is not None and ls.features.show_document:
        shown = ls.wire.request(
            types.WINDOW_SHOW_DOCUMENT, types.ShowDocumentParams(uri=outcome.url, external=True)
        )
        runtime.mcp.keep_sign_in(asyncio.ensure_future(_quietly(shown)))
    if outcome.rest is not None:
        finish = _finish(ls, key, wanted.server, outcome.rest)
        runtime.mcp.keep_sign_in(asyncio.ensure_future(finish))
    if not ls.features.stream:
        ls.show("\n".join(outcome.lines))
    return McpAccountResult(ok=outcome.ok, lines=outcome.lines)


async def _quietly(request: Any) -> None:
    try:
        await request
    except Exception as exc:  # the URL is in the result's lines all the same
        log.info("the client did not open the sign-in address: %s", exc)


async def _finish(ls: KesiServer, key: str, name: str, rest: Any) -> None:
    """When the browser's round trip ends: say how, and connect the server again."""
    try:
        ok, line = await rest
    except asyncio.CancelledError:
        rest.cancel()
        raise
    ls.show(line, types.MessageType.Info if ok else types.MessageType.Error)
    if ok:
        await ls.host.runtime.mcp.restart(key, name)


async def mcp_logout_command(ls: KesiServer, *args: Any) -> McpAccountResult:
    """Delete the stored sign-in (see the module text)."""
    from kesi_lsp.core import mcp_logout  # the MCP SDK, as above

    wanted = read_args(LOGOUT, args, McpAccountArgs)
    folder, _ = target(ls, wanted.uri)
    locale = ls.locale_for(folder)
    key, configs = _servers(ls, folder)
    environ = ls.host.runtime.environ
    ok, lines = await asyncio.to_thread(mcp_logout, configs, wanted.server, environ, locale)
    await ls.host.runtime.mcp.restart(key, wanted.server)
    if not ls.features.stream:
        ls.show("\n".join(lines))
    return McpAccountResult(ok=ok, lines=lines)


def register(server: KesiServer) -> None:
    server.command(LOGIN)(mcp_login_command)
    server.command(LOGOUT)(mcp_logout_command)
