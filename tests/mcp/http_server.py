"""A streamable-HTTP MCP server on loopback, served by the official SDK (its `MCPServer` app
under uvicorn), for the HTTP transport's tests.

    python http_server.py PORT_FILE [TOKEN]

binds 127.0.0.1 on a free port, writes the port to PORT_FILE once it listens, and, with TOKEN,
answers 401 to any request without `Authorization: Bearer TOKEN` (a server that needs
authorization). Its one tool, `greet`, answers "Hello, <name>"."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn
from mcp.server.mcpserver import MCPServer
from starlette.responses import PlainTextResponse


def app(token: str | None) -> Any:
    server = MCPServer("loopback")

    @server.tool()
    def greet(name: str) -> str:
        """Greet someone by name."""
        return f"Hello, {name}"

    inner = server.streamable_http_app()
    if token is None:
        return inner

    async def guarded(scope: Any, receive: Any, send: Any) -> None:
        headers = dict(scope.get("headers") or [])
        if scope["type"] == "http" and headers.get(b"authorization") != f"Bearer {token}".encode():
            await PlainTextResponse("unauthorized", status_code=401)(scope, receive, send)
            return
        await inner(scope, receive, send)

    return guarded


def main(port_file: Path, token: str | None) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)  # connections wait in the backlog until uvicorn accepts them
    port_file.write_text(str(sock.getsockname()[1]), encoding="utf-8")
    config = uvicorn.Config(app(token), log_level="warning", lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else None)
