"""`kesi-lsp mcp list [--config FILE]`: start each configured MCP server the way a session
would (in the command sandbox of the current folder), and print its state and its tools, or
why it failed; exit status 1 when one failed. FILE is JSON in the `.mcp.json` / Claude Desktop
shape (`{"mcpServers": {...}}`, or the servers object itself); without it, `.mcp.json` of the
current folder. The doctor runs the same check (`kesi-lsp doctor --mcp-config FILE`)."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path

from kesi_lsp.catalog import Locale, text


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="mcp_command", required=True)
    listing = sub.add_parser("list", help="start each MCP server and list its state and tools")
    listing.add_argument("--config", help="a JSON file with mcpServers (default: ./.mcp.json)")
    listing.add_argument("--locale", choices=("en", "zh-TW"), default="en")


def server_report(config: Path, locale: Locale) -> tuple[list[str], bool]:
    """The listing lines for the servers of `config`, and whether every one is ready."""
    from kesi_lsp.core import parse_settings

    try:
        value = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return [f"{config}: {exc}"], False
    servers = value.get("mcpServers", value) if isinstance(value, dict) else value
    parsed = parse_settings({"mcpServers": servers, "locale": locale})
    return asyncio.run(_report(parsed.settings, list(parsed.problems)))


async def _report(settings: object, problems: list[str]) -> tuple[list[str], bool]:
    from kesi_lsp.core import AgentSettings, Runtime, mcp_report

    assert isinstance(settings, AgentSettings)
    if not settings.mcp_servers:
        return [*problems, text("mcp.line.none", settings.locale)], not problems
    root = Path.cwd().resolve()
    runtime = Runtime(dict(os.environ))
    try:
        await runtime.start_mcp("cli", root, settings)
        handle = runtime.mcp.get("cli")
        if handle is not None:
            await handle.loaded.wait()
            if handle.group is not None:
                await handle.group.wait_started()
        views, lines = mcp_report(runtime.mcp, "cli", settings)
    finally:
        await runtime.aclose()
    return [*problems, *lines], not problems and all(v.state == "ready" for v in views)


def main(args: argparse.Namespace) -> int:
    locale: Locale = "zh-TW" if args.locale == "zh-TW" else "en"
    config = Path(args.config) if args.config else Path(".mcp.json")
    lines, ok = server_report(config, locale)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if ok else 1
