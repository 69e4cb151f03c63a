"""The composition root of the language server: build it, wire its features, serve it.

`create_server` is where the parts meet: the server (with its link to the editor), the core's
runtime (the host environment and the agent), and the feature modules, registered in order.
Nothing else imports the feature modules, so no import runs in a circle.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

from kesi_lsp.core import AgentRunner, Runtime
from kesi_lsp.lsp import (
    audit_command,
    change_commands,
    change_lenses,
    code_actions,
    commands,
    documents_sync,
    lifecycle,
    mcp_account,
    mcp_commands,
    task_commands,
)
from kesi_lsp.lsp.server import KesiServer
from kesi_lsp.stdio import claim_stdio

FEATURES = (
    lifecycle,
    documents_sync,
    commands,
    mcp_commands,
    mcp_account,
    change_commands,
    audit_command,
    task_commands,
    code_actions,
    change_lenses,
)


def create_server(
    environ: Mapping[str, str] | None = None, runner: AgentRunner | None = None
) -> KesiServer:
    """A ready-to-start server. `runner` defaults to the runtime's agent (loaded in the
    background once the editor is connected: `Runtime.prepare`; runs and `kesi.compact` share
    its model client)."""
    environ = dict(os.environ if environ is None else environ)
    server = KesiServer(Runtime(environ, runner))
    for feature in FEATURES:
        feature.register(server)
    return server


def serve(args: argparse.Namespace) -> int:
    """Run the server on stdio (or TCP with --tcp) until the client says exit."""
    server = create_server()
    if args.tcp:
        server.start_tcp(args.host, args.port)
        return 0
    return serve_stdio(server)


def serve_stdio(server: KesiServer) -> int:
    """Serve one client on stdin/stdout, keeping stdout for JSON-RPC alone (`claim_stdio`)."""
    rpc_in, rpc_out = claim_stdio()
    server.start_io(rpc_in, rpc_out)
    return 0
