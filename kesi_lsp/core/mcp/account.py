"""Signing in to and out of a configured remote MCP server, in the user's words: what the
language server's `kesi.mcpLogin` / `kesi.mcpLogout` and `kesi-lsp mcp login` / `logout` do.

A sign-in answers once the address to open is known (`LoginOutcome.url`, with the lines that
say so); what the browser then does is `LoginOutcome.rest`, which ends with the last line to
tell (signed in, or why not). A sign-out deletes the stored tokens; the server is then
connected again by the front end, and says it needs sign-in.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.connect import has_bearer
from kesi_lsp.core.mcp.signin import SIGN_IN_SECONDS, SignInError, start
from kesi_lsp.core.mcp.tokens import TokenFile, auth_directory, files_named
from kesi_lsp.core.settings.mcp_servers import ServerConfig


@dataclass(frozen=True)
class LoginOutcome:
    """The first answer of a sign-in (see the module text)."""

    ok: bool
    lines: list[str]
    url: str | None = None
    rest: asyncio.Task[tuple[bool, str]] | None = field(default=None, compare=False)


def server_named(configs: Sequence[ServerConfig], name: str, locale: Locale) -> ServerConfig | str:
    """The server called `name` that can be signed in to, or the line saying why not."""
    config = next((c for c in configs if c.name == name), None)
    if config is None:
        names = ", ".join(c.name for c in configs) or "-"
        return text("mcp.signin.unknown", locale, name=name, names=names)
    if config.transport != "http":
        return text("mcp.signin.not_http", locale, name=name)
    if has_bearer(config):
        return text("mcp.signin.has_header", locale, name=name)
    return config


async def mcp_login(
    configs: Sequence[ServerConfig],
    name: str,
    environ: Mapping[str, str],
    locale: Locale,
    seconds: float = SIGN_IN_SECONDS,
) -> LoginOutcome:
    """Begin signing in to the server `name` of `configs` (see the module text)."""
    found = server_named(configs, name, locale)
    folder = auth_directory(environ)
    if isinstance(found, str):
        return LoginOutcome(False, [found])
    if folder is None:
        return LoginOutcome(False, [text("mcp.signin.no_home", locale)])
    store = TokenFile(folder, found.url, name)
    try:
        begun = await start(found, store, locale, seconds)
    except SignInError as exc:
        return LoginOutcome(False, [_failed(name, exc, locale)])
    if begun.url is None:
        return LoginOutcome(True, [text("mcp.signin.already", locale, name=name)])
    lines = [
        text("mcp.signin.open", locale, name=name),
        begun.url,
        text("mcp.signin.waiting", locale, minutes=f"{seconds / 60:g}"),
    ]
    rest = asyncio.ensure_future(_rest(begun.done, name, locale))
    return LoginOutcome(True, lines, begun.url, rest)


async def _rest(done: asyncio.Task[None], name: str, locale: Locale) -> tuple[bool, str]:
    try:
        await done
    except SignInError as exc:
        return False, _failed(name, exc, locale)
    return True, text("mcp.signin.done", locale, name=name)


def _failed(name: str, exc: BaseException, locale: Locale) -> str:
    return text("mcp.signin.failed", locale, name=name, reason=str(exc))


def mcp_logout(
    configs: Sequence[ServerConfig], name: str, environ: Mapping[str, str], locale: Locale
) -> tuple[bool, list[str]]:
    """Delete the stored sign-in of the server `name` (by its URL when it is configured, else
    every sign-in recorded under that name); whether there was one, and the line saying so."""
    folder = auth_directory(environ)
    config = next((c for c in configs if c.name == name and c.transport != "stdio"), None)
    stores = [TokenFile(folder, config.url, name)] if config is not None else []
    stores += files_named(folder, name)
    forgotten = [store.forget() for store in stores]  # every one, not the first only
    forgot = any(forgotten)
    key = "mcp.signout.done" if forgot else "mcp.signout.none"
    return forgot, [text(key, locale, name=name)]


def sign_in_file(environ: Mapping[str, str], url: str) -> Path | None:
    """Where the sign-in of `url` is kept (tests, doctor)."""
    return TokenFile(auth_directory(environ), url).path
