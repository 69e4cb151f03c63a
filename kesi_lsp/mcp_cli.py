"""`kesi-lsp mcp list [--config FILE]`: start each configured MCP server the way a session
would (in the command sandbox of the current folder), and print its state and its tools, or
why it failed; exit status 1 when one failed. FILE is JSON in the `.mcp.json` / Claude Desktop
shape (`{"mcpServers": {...}}`, or the servers object itself); without it, `.mcp.json` of the
current folder. The doctor runs the same check (`kesi-lsp doctor --mcp-config FILE`).

`kesi-lsp mcp reset [FOLDER]` forgets what you answered about the servers of a folder's
`.mcp.json` (default: the current folder), so that its next run asks again
(`core.mcp.workspace`).

`kesi-lsp mcp login NAME [--config FILE | --url URL]` signs in to the remote server NAME with
OAuth: it prints the address to open (and opens the browser, unless `--no-browser`), waits for
the browser to come back to KeSi's loopback address, and keeps the tokens in
`$XDG_STATE_HOME/kesi/mcp-auth/` (`core.mcp.tokens`); exit status 1 when it did not sign in.
`kesi-lsp mcp logout NAME [--config FILE | --url URL]` deletes them."""

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
    reset = sub.add_parser("reset", help="forget the answers about a folder's .mcp.json")
    reset.add_argument("folder", nargs="?", default=".", help="the folder (default: .)")
    reset.add_argument("--locale", choices=("en", "zh-TW"), default="en")
    login = sub.add_parser("login", help="sign in to a remote MCP server (OAuth)")
    logout = sub.add_parser("logout", help="delete the sign-in to a remote MCP server")
    for account in (login, logout):
        account.add_argument("name", help="the server's name in the configuration")
        where = account.add_mutually_exclusive_group()
        where.add_argument("--config", help="a JSON file with mcpServers (default: ./.mcp.json)")
        where.add_argument("--url", help="the server's address, instead of a configuration")
        account.add_argument("--locale", choices=("en", "zh-TW"), default="en")
    login.add_argument("--no-browser", action="store_true", help="only print the address")


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


def forget(folder: Path, locale: Locale) -> str:
    """Forget the answers about `folder`'s `.mcp.json` servers; the sentence saying so."""
    from kesi_lsp.core.mcp.workspace import WorkspaceServers

    had = WorkspaceServers(dict(os.environ)).answers.forget(folder)
    key = "mcp.workspace.reset" if had else "mcp.workspace.reset_none"
    return text(key, locale, folder=folder.resolve())


def configured(args: argparse.Namespace) -> tuple[list[object], list[str]]:
    """The servers `login`/`logout` choose from: `--url`'s one, else those of the file."""
    from kesi_lsp.core import parse_settings

    if args.url:
        servers: object = {args.name: {"type": "http", "url": args.url}}
    else:
        config = Path(args.config) if args.config else Path(".mcp.json")
        try:
            value = json.loads(config.read_text(encoding="utf-8"))
        except FileNotFoundError:
            value = {}
        except (OSError, ValueError) as exc:
            return [], [f"{config}: {exc}"]
        servers = value.get("mcpServers", value) if isinstance(value, dict) else value
    parsed = parse_settings({"mcpServers": servers})
    return list(parsed.settings.mcp_servers), list(parsed.problems)


async def login(args: argparse.Namespace, configs: list[object], locale: Locale) -> int:
    """Sign in (see the module text); the exit status."""
    import webbrowser

    from kesi_lsp.core.mcp.account import mcp_login

    outcome = await mcp_login(configs, args.name, dict(os.environ), locale)  # type: ignore[arg-type]
    _say(outcome.lines)
    if outcome.url is not None and not args.no_browser:
        await asyncio.to_thread(webbrowser.open, outcome.url)
    if outcome.rest is None:
        return 0 if outcome.ok else 1
    ok, line = await outcome.rest
    _say([text("mcp.signin.done_cli", locale, name=args.name) if ok else line])
    return 0 if ok else 1


def _say(lines: list[str]) -> None:
    sys.stdout.write("\n".join(lines) + "\n")
    sys.stdout.flush()


def account(args: argparse.Namespace, locale: Locale) -> int:
    """`login` or `logout`."""
    from kesi_lsp.core.mcp.account import mcp_logout

    configs, problems = configured(args)
    if problems and not configs:
        _say(problems)
        return 1
    if args.mcp_command == "login":
        return asyncio.run(login(args, configs, locale))
    _, lines = mcp_logout(configs, args.name, dict(os.environ), locale)  # type: ignore[arg-type]
    _say(lines)
    return 0


def main(args: argparse.Namespace) -> int:
    locale: Locale = "zh-TW" if args.locale == "zh-TW" else "en"
    if args.mcp_command == "reset":
        sys.stdout.write(forget(Path(args.folder), locale) + "\n")
        return 0
    if args.mcp_command in ("login", "logout"):
        return account(args, locale)
    config = Path(args.config) if args.config else Path(".mcp.json")
    lines, ok = server_report(config, locale)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0 if ok else 1
