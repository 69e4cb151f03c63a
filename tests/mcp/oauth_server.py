"""A streamable-HTTP MCP server on loopback behind OAuth 2.1, served by the official SDK: its
`MCPServer` with the SDK's server-side auth (`mcp.server.auth`: discovery metadata, dynamic
client registration, /authorize, /token, the bearer check on /mcp) over an in-memory provider
that approves every authorization at once (as the SDK's simple-auth example does after its
login page), for the sign-in tests.

    python oauth_server.py PORT_FILE

binds 127.0.0.1 on a free port and writes the port to PORT_FILE once it listens. Its one
tool, `greet`, answers "Hello, <name>". A GET of the authorization address (what a browser
does) answers with the redirect to the client's callback, carrying the code."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import uvicorn
from mcp.server.auth.provider import (
    AccessToken,
    AuthorizationCode,
    AuthorizationParams,
    RefreshToken,
    construct_redirect_uri,
)
from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions
from mcp.server.mcpserver import MCPServer
from mcp.shared.auth import OAuthClientInformationFull, OAuthToken

SCOPE = "greet"


class ApprovingProvider:
    """`OAuthAuthorizationServerProvider` in memory: every authorization is approved."""

    def __init__(self) -> None:
        self.clients: dict[str, OAuthClientInformationFull] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access: dict[str, AccessToken] = {}
        self.refresh: dict[str, RefreshToken] = {}

    async def get_client(self, client_id: str) -> OAuthClientInformationFull | None:
        return self.clients.get(client_id)

    async def register_client(self, client_info: OAuthClientInformationFull) -> None:
        assert client_info.client_id is not None
        self.clients[client_info.client_id] = client_info

    async def authorize(
        self, client: OAuthClientInformationFull, params: AuthorizationParams
    ) -> str:
        code = secrets.token_urlsafe(24)
        self.codes[code] = AuthorizationCode(
            code=code,
            scopes=params.scopes or [SCOPE],
            expires_at=time.time() + 300,
            client_id=client.client_id or "",
            code_challenge=params.code_challenge,
            redirect_uri=params.redirect_uri,
            redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly,
            resource=params.resource,
        )
        return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state)

    async def load_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: str
    ) -> AuthorizationCode | None:
        return self.codes.get(authorization_code)

    async def exchange_authorization_code(
        self, client: OAuthClientInformationFull, authorization_code: AuthorizationCode
    ) -> OAuthToken:
        self.codes.pop(authorization_code.code, None)
        return self._issue(client.client_id or "", authorization_code.scopes)

    async def load_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: str
    ) -> RefreshToken | None:
        return self.refresh.get(refresh_token)

    async def exchange_refresh_token(
        self, client: OAuthClientInformationFull, refresh_token: RefreshToken, scopes: list[str]
    ) -> OAuthToken:
        self.refresh.pop(refresh_token.token, None)
        return self._issue(client.client_id or "", scopes or refresh_token.scopes)

    async def load_access_token(self, token: str) -> AccessToken | None:
        found = self.access.get(token)
        if found is None or (found.expires_at is not None and found.expires_at < time.time()):
            return None
        return found

    async def revoke_token(self, token: AccessToken | RefreshToken) -> None:
        self.access.pop(token.token, None)
        self.refresh.pop(token.token, None)

    def _issue(self, client_id: str, scopes: list[str]) -> OAuthToken:
        access, refresh = secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        expires = int(time.time()) + 3600
        self.access[access] = AccessToken(
            token=access, client_id=client_id, scopes=scopes, expires_at=expires
        )
        self.refresh[refresh] = RefreshToken(token=refresh, client_id=client_id, scopes=scopes)
        return OAuthToken(
            access_token=access, expires_in=3600, refresh_token=refresh, scope=" ".join(scopes)
        )


def app(base: str) -> Any:
    auth = AuthSettings(
        issuer_url=base,  # type: ignore[arg-type]
        resource_server_url=f"{base}/mcp",  # type: ignore[arg-type]
        validate_token_resource=False,
        client_registration_options=ClientRegistrationOptions(
            enabled=True, valid_scopes=[SCOPE], default_scopes=[SCOPE]
        ),
        required_scopes=[SCOPE],
    )
    server = MCPServer("oauth-loopback", auth_server_provider=ApprovingProvider(), auth=auth)

    @server.tool()
    def greet(name: str) -> str:
        """Greet someone by name."""
        return f"Hello, {name}"

    return server.streamable_http_app()


def main(port_file: Path) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn.Config(app(base), log_level="warning", lifespan="on")
    partial = port_file.with_suffix(".partial")
    partial.write_text(str(sock.getsockname()[1]), encoding="utf-8")
    partial.replace(port_file)  # whole, or not there yet
    uvicorn.Server(config).run(sockets=[sock])


@contextlib.asynccontextmanager
async def oauth_loopback(folder: Path) -> AsyncIterator[str]:
    """This server as a process, for a test: the URL of its /mcp endpoint."""
    port_file = folder / "oauth-port"
    process = await asyncio.create_subprocess_exec(sys.executable, __file__, str(port_file))
    try:
        deadline = time.monotonic() + 60
        while process.returncode is None and not port_file.is_file():
            assert time.monotonic() < deadline, "the OAuth loopback server never listened"
            await asyncio.sleep(0.05)
        assert process.returncode is None, "the OAuth loopback server exited"
        yield f"http://127.0.0.1:{port_file.read_text()}/mcp"
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 10)


@contextlib.contextmanager
def oauth_loopback_process(folder: Path) -> Iterator[str]:
    """`oauth_loopback` for a test without an event loop (the real-editor tests)."""
    port_file = folder / "oauth-port"
    process = subprocess.Popen([sys.executable, __file__, str(port_file)])
    try:
        deadline = time.monotonic() + 60
        while process.poll() is None and not port_file.is_file():
            assert time.monotonic() < deadline, "the OAuth loopback server never listened"
            time.sleep(0.05)
        assert process.poll() is None, "the OAuth loopback server exited"
        yield f"http://127.0.0.1:{port_file.read_text()}/mcp"
    finally:
        process.terminate()
        process.wait(10)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
