"""The KeSi language server (pygls 2). Features are registered in `kesi_lsp.lsp.features`."""

from __future__ import annotations

import argparse

from pygls.lsp.server import LanguageServer

from kesi_lsp import __version__


def create_server() -> LanguageServer:
    return LanguageServer("kesi-lsp", __version__)


def serve(args: argparse.Namespace) -> int:
    """Run the server on stdio (or TCP with --tcp) until the client says exit."""
    server = create_server()
    if args.tcp:
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    return 0
