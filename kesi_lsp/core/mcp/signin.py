"""Signing in to a remote MCP server with OAuth 2.1: the SDK's `OAuthClientProvider` does the
protocol (discovery, dynamic registration, PKCE, the code exchange, refresh); KeSi gives it a
place for the tokens (`core.mcp.tokens`), a loopback address for the browser to come back to
(`http://127.0.0.1:<port>/callback`, RFC 8252) and a way to show the authorization address.

`start` begins a sign-in and returns as soon as the address the user must open is known (or
the sign-in finished without one: the stored tokens were still good); the rest, waiting for
the browser and exchanging the code, goes on in `SignIn.done`, bounded by `SIGN_IN_SECONDS`.
The same registration is used again at the next sign-in when its loopback port is free (else
KeSi registers anew: the redirect address must match the registered one exactly).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qs, urlsplit

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.tokens import TokenFile
from kesi_lsp.core.settings.mcp_servers import ServerConfig

if TYPE_CHECKING:
    from mcp.shared.auth import AuthorizationCodeResult

log = logging.getLogger(__name__)

SIGN_IN_SECONDS: Final = 600.0
CALLBACK_PATH: Final = "/callback"
LOOPBACK: Final = "127.0.0.1"
PLACEHOLDER: Final = f"http://{LOOPBACK}{CALLBACK_PATH}"
"""The redirect address of a provider that only refreshes (it never sends the user anywhere)."""
MAX_REQUEST: Final = 16 * 1024
PROBE_VERSION: Final = "2025-06-18"
"""The protocol version of the one `initialize` a sign-in sends: one every OAuth-era server
knows. Only whether the server lets KeSi in matters (a 401 or 403 after the flow: it does not);
the session it opens is not used."""


class SignInError(Exception):
    """Why a sign-in did not end with tokens, in the user's words."""


def provider(
    config: ServerConfig,
    store: TokenFile,
    redirect_uri: str = PLACEHOLDER,
    redirect_handler: Callable[[str], Awaitable[None]] | None = None,
    callback_handler: Callable[[], Awaitable[AuthorizationCodeResult]] | None = None,
) -> Any:
    """The SDK's OAuth provider for `config`'s server over `store`."""
    from mcp.client.auth import OAuthClientProvider
    from mcp.shared.auth import OAuthClientMetadata
    from pydantic import AnyUrl

    from kesi_lsp import __version__

    metadata = OAuthClientMetadata(
        client_name="KeSi",
        software_id="kesi-lsp",
        software_version=__version__,
        redirect_uris=[AnyUrl(redirect_uri)],
        grant_types=["authorization_code", "refresh_token"],
        response_types=["code"],
    )
    return OAuthClientProvider(
        server_url=config.url,
        client_metadata=metadata,
        storage=store,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )


class Callback:
    """The loopback server the browser is sent back to with the code (one answer, then shut)."""

    def __init__(self, locale: Locale, name: str) -> None:
        self.locale = locale
        self.name = name
        self.port = 0
        self.answer: asyncio.Future[AuthorizationCodeResult] = asyncio.Future()
        self._server: asyncio.Server | None = None

    @property
    def redirect_uri(self) -> str:
        return f"http://{LOOPBACK}:{self.port}{CALLBACK_PATH}"

    async def open(self, port: int) -> bool:
        """Listen on `port` (0: any free one); whether it was free."""
        try:
            self._server = await asyncio.start_server(self._serve, LOOPBACK, port)
        except OSError:
            return False
        self.port = self._server.sockets[0].getsockname()[1]
        return True

    async def wait(self) -> AuthorizationCodeResult:
        return await self.answer

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
            status, page = self._take(head[:MAX_REQUEST].decode("latin-1").split(" "))
        except (OSError, ValueError, TimeoutError, asyncio.IncompleteReadError):
            status, page = "400 Bad Request", ""
        body = f"<!doctype html><meta charset=utf-8><p>{page}</p>".encode()
        answer = (
            f"HTTP/1.1 {status}\r\nContent-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
        ).encode()
        with contextlib.suppress(OSError):
            writer.write(answer + body)
            await writer.drain()
            writer.close()

    def _take(self, request_line: list[str]) -> tuple[str, str]:
        """The answer to one request; the code (or the refusal) of the right one kept."""
        from mcp.shared.auth import AuthorizationCodeResult

        target = urlsplit(request_line[1] if len(request_line) > 1 else "")
        if request_line[0] != "GET" or target.path != CALLBACK_PATH:
            return "404 Not Found", ""
        query = {k: v[0] for k, v in parse_qs(target.query).items()}
        if self.answer.done():
            return "200 OK", text("mcp.signin.page_done", self.locale, name=self.name)
        if "code" not in query:
            said = query.get("error_description") or query.get("error") or "no code"
            self.answer.set_exception(SignInError(said))
            return "200 OK", text("mcp.signin.page_refused", self.locale, name=self.name)
        code = AuthorizationCodeResult(
            code=query["code"], state=query.get("state"), iss=query.get("iss")
        )
        self.answer.set_result(code)
        return "200 OK", text("mcp.signin.page_done", self.locale, name=self.name)


@dataclass
class SignIn:
    """A sign-in under way: `url` the address to open (None: none was needed), `done` the
    rest of it (its exception: why it failed, as `SignInError`)."""

    url: str | None
    done: asyncio.Task[None]


async def start(
    config: ServerConfig,
    store: TokenFile,
    locale: Locale,
    seconds: float = SIGN_IN_SECONDS,
) -> SignIn:
    """Begin signing in to `config`'s server (see the module text). SignInError when it fails
    before there is an address to open (the server does not offer OAuth, cannot be reached)."""
    callback = Callback(locale, config.name)
    if not await callback.open(_registered_port(store)):
        await asyncio.to_thread(store.forget_client)
        await callback.open(0)
    shown: asyncio.Future[str | None] = asyncio.Future()

    async def redirect(url: str) -> None:
        if not shown.done():
            shown.set_result(url)

    oauth = provider(config, store, callback.redirect_uri, redirect, callback.wait)
    done = asyncio.ensure_future(_exchange(config, oauth, callback, seconds))

    def ended(_: object) -> None:
        if not shown.done():
            shown.set_result(None)

    done.add_done_callback(ended)
    url = await shown
    if url is None and done.exception() is not None:
        raise done.exception()  # type: ignore[misc]
    return SignIn(url, done)


def _registered_port(store: TokenFile) -> int:
    """The loopback port the stored registration redirects to (0: none)."""
    info = store.read().get("client_info")
    uris = info.get("redirect_uris") if isinstance(info, dict) else None
    if not isinstance(uris, list) or not uris or not isinstance(uris[0], str):
        return 0
    parts = urlsplit(uris[0])
    if parts.hostname != LOOPBACK or parts.path != CALLBACK_PATH:
        return 0
    try:
        return parts.port or 0
    except ValueError:
        return 0


async def _exchange(config: ServerConfig, oauth: Any, callback: Callback, seconds: float) -> None:
    """One request to the server through the provider: its 401 starts the SDK's flow, which
    waits for the browser (`callback`) and exchanges the code; the retried request's answer
    says whether the server now lets KeSi in (`PROBE_VERSION`)."""
    import httpx2

    from kesi_lsp import __version__

    hello = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": PROBE_VERSION,
            "capabilities": {},
            "clientInfo": {"name": "kesi-lsp", "version": __version__},
        },
    }
    headers = {
        **dict(config.headers),
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": PROBE_VERSION,
    }
    try:
        async with (
            asyncio.timeout(seconds),
            httpx2.AsyncClient(auth=oauth, timeout=30.0) as client,
            client.stream("POST", config.url, json=hello, headers=headers) as response,
        ):
            status = response.status_code
    except SignInError:
        raise
    except TimeoutError as exc:
        raise SignInError(f"no answer within {seconds:g} s") from exc
    except Exception as exc:  # the SDK's flow errors, the network's: all one failed sign-in
        said = str(exc).strip()
        raise SignInError(f"{type(exc).__name__}: {said}" if said else type(exc).__name__) from exc
    finally:
        await callback.close()
    if status in (401, 403):
        raise SignInError(f"HTTP {status}")
    log.info("MCP server %s: signed in", config.name)
