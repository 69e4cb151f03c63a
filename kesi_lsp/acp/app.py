"""The composition root of `kesi-lsp acp`: claim stdio, build the agent, serve one client.

The parts meet here: the claimed stdio (`kesi_lsp.stdio`: nothing but JSON-RPC reaches
stdout), the line transport that answers malformed input, the `acp` package's connection with
KeSi's dispatcher, the core's runtime (the host environment, the agent loaded lazily) and the
settings from the environment. When the client goes away (end of input) every run stops the
way the seed's Ctrl-C stops it before the process ends.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from acp.connection import Connection

from kesi_lsp.acp.agent import KesiAgent
from kesi_lsp.acp.client import AcpClient
from kesi_lsp.acp.dispatch import Dispatcher
from kesi_lsp.acp.transport import LINE_LIMIT, LineTransport, open_streams
from kesi_lsp.core import environment_settings, parse_settings
from kesi_lsp.stdio import claim_stdio

if TYPE_CHECKING:
    from kesi_lsp.core import AgentRunner, Runtime

log = logging.getLogger(__name__)

SETTLE_SECONDS: Final = 5.0


def serve(args: argparse.Namespace) -> int:
    """Serve one ACP client on stdin/stdout until it closes the connection."""
    rpc_in, rpc_out = claim_stdio()
    environ = dict(os.environ)
    limit = message_limit(environ)

    async def main() -> None:
        reader, writer = await open_streams(rpc_in, rpc_out, limit=limit)
        await serve_connection(reader, writer, environ, limit=limit)

    asyncio.run(main())
    return 0


def message_limit(environ: Mapping[str, str]) -> int:
    """The longest line read, in bytes: `KESI_MAX_MESSAGE_MEGABYTES` (the reader exists before
    `initialize` brings `_meta.kesi`, so only the environment sets it; a bad value is said
    with the session's other settings problems, and the default is used)."""
    megabytes = parse_settings(environment_settings(environ)).settings.max_message_megabytes
    return megabytes << 20


async def serve_connection(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    environ: Mapping[str, str],
    runner: AgentRunner | None = None,
    *,
    limit: int = LINE_LIMIT,
) -> None:
    """Serve one client over `reader`/`writer`; `runner` defaults to the runtime's agent (the
    one the language server runs too: its model client kept for the connection's life);
    `limit` is the one `reader` was made with (`open_streams`)."""
    agent = KesiAgent(lambda: _runtime(environ, runner), environment_settings(environ))
    dispatch = Dispatcher(agent, lambda: agent.locale)
    transport = LineTransport(reader, writer, limit=limit)
    transport.on_sent = agent.sent
    conn = Connection(dispatch, transport, listening=False)
    agent.client = AcpClient(conn)
    try:
        await conn.main_loop()
    finally:
        log.info("the client closed the connection; stopping every run")
        await agent.stop()
        await dispatch.settle(SETTLE_SECONDS)  # answers under way still go out
        await agent.client.close()
        await agent.aclose()  # the agent's model clients


def _runtime(environ: Mapping[str, str], runner: AgentRunner | None) -> Runtime:
    """The core's runtime, imported when the agent first needs it (`KesiAgent`: not before
    `initialize` is answered)."""
    from kesi_lsp.core import Runtime

    return Runtime(environ, runner)
