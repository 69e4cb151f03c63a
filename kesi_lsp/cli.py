"""The `kesi-lsp` command: serve LSP (default), serve ACP (`acp`), or run `demo` / `doctor` /
`mcp list` / `audit`.

stdout belongs to JSON-RPC when serving, so nothing here prints unless a subcommand that owns
the terminal (demo, doctor, mcp, audit, --version) is running. The server logs to stderr (and
`--log-file`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from kesi_lsp import __version__
from kesi_lsp.audit_cli import add_arguments as add_audit_arguments
from kesi_lsp.demo.options import add_arguments as add_demo_arguments
from kesi_lsp.doctor import add_arguments as add_doctor_arguments
from kesi_lsp.mcp_cli import add_arguments as add_mcp_arguments
from kesi_lsp.startup import imports_without_collection


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="kesi-lsp",
        description="KeSi coding agent as a language server (stdio by default).",
    )
    parser.add_argument("--version", action="version", version=f"kesi-lsp {__version__}")
    parser.add_argument("--stdio", action="store_true", help="serve over stdio (the default)")
    parser.add_argument("--tcp", action="store_true", help="serve over TCP instead of stdio")
    parser.add_argument("--host", default="127.0.0.1", help="TCP host (with --tcp)")
    parser.add_argument("--port", type=int, default=2087, help="TCP port (with --tcp)")
    parser.add_argument("--log-file", help="also write the server log to this file")
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="subcommand")
    add_demo_arguments(sub.add_parser("demo", help="watch KeSi fix a bug in a sample project"))
    add_doctor_arguments(sub.add_parser("doctor", help="check what works on this machine"))
    add_mcp_arguments(sub.add_parser("mcp", help="list the MCP servers of a configuration"))
    add_audit_arguments(
        sub.add_parser(
            "audit",
            help="show a folder's audit log: what KeSi ran, edited and called, who decided",
        )
    )
    acp = sub.add_parser(
        "acp",
        help="speak the Agent Client Protocol on stdio (Zed, JetBrains, CodeCompanion, ...)",
        description="Serve one Agent Client Protocol client on stdin/stdout (ACP v1).",
    )
    # Also after the subcommand (an agent's "args": ["acp", "-v"]); SUPPRESS keeps the values
    # given before it.
    acp.add_argument("--log-file", default=argparse.SUPPRESS, help="also write the log here")
    acp.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.subcommand == "demo":
        from kesi_lsp.demo.run import main as demo

        return demo(args)
    if args.subcommand == "doctor":
        from kesi_lsp.doctor import main as doctor

        return doctor(args)
    if args.subcommand == "mcp":
        from kesi_lsp.mcp_cli import main as mcp

        return mcp(args)
    if args.subcommand == "audit":
        from kesi_lsp.audit_cli import main as audit

        return audit(args)
    if args.subcommand == "acp":
        with imports_without_collection():
            from kesi_lsp.acp.app import serve as serve_acp
            from kesi_lsp.logs import configure_logging

        configure_logging(args.verbose, args.log_file, quiet_stderr=True)
        return serve_acp(args)
    if args.tcp and args.stdio:
        build_parser().error("choose one of --stdio and --tcp")
    # Imported late: --version and the subcommands must not load pygls.
    with imports_without_collection():
        from kesi_lsp.logs import configure_logging
        from kesi_lsp.lsp.app import serve

    configure_logging(args.verbose, args.log_file)
    return serve(args)


if __name__ == "__main__":
    sys.exit(main())
