"""Why a server is not working, as a value (`Failure`) and in the user's words (`describe`).

Every way a server goes wrong ends here, from the exception (or the lack of one) and what the
server said on the way (`ServerOutput`: its stderr's last lines, the first line that was not
MCP, its exit code, the HTTP status): a missing program, a program that exits at start or
cannot start in the sandbox, garbage, a hang at `initialize` or `tools/list`, a crash, a
server that asks for authorization. The sentence says which server and what to do.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Literal, Protocol

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.mcp.stdio import ServerOutput
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.settings.mcp_servers import ServerConfig


class McpServer(Protocol):
    """What a reason is read from: the server's configuration, output, sandbox and stage."""

    config: ServerConfig
    output: ServerOutput
    sandbox: Sandbox
    stage: str
    init_seconds: float
    list_seconds: float


Kind = Literal[
    "missing",
    "exited",
    "sandbox",
    "timeout",
    "garbage",
    "flood",
    "auth",
    "http",
    "crashed",
    "restarting",
    "gave_up",
    "not_ready",
    "stopped",
    "call_crashed",
    "call_error",
    "call_timeout",
    "error",
]
NOT_RUNNABLE = frozenset({126, 127})


@dataclass(frozen=True)
class Failure:
    """What went wrong: a `kind` (a catalog key under `mcp.reason.`) and its details."""

    kind: Kind
    detail: str = ""
    seconds: float = 0.0
    count: int = 0
    code: int | None = None


def why_failed(exc: BaseException | None, server: McpServer, *, stage: str) -> Failure:
    """The `Failure` for `exc` (None: the connection just ended) at `stage` ("start",
    "crashed" or "call")."""
    output = server.output
    exc = _leaf(exc)
    if isinstance(exc, FileNotFoundError) and stage == "start":
        return Failure("missing", server.config.command)
    if output.http_status in (401, 403):
        return Failure("auth", server.config.url, code=output.http_status)
    if output.too_long or output.garbage_lines > 200:
        return Failure("flood", output.garbage or "")
    if isinstance(exc, TimeoutError) and stage == "start":
        if output.garbage is not None:
            return Failure("garbage", output.garbage)
        return Failure("timeout", server.stage, seconds=_bound(server))
    if exc is None or _closed(exc):
        kind: Kind = "call_crashed" if stage == "call" else "crashed"
        if stage == "start":
            kind = "sandbox" if _unrunnable(server) else "exited"
        return Failure(kind, _said(server), code=output.returncode)
    if stage == "call":
        return Failure("call_error", _message(exc))
    if server.config.transport != "stdio":
        return Failure("http", _message(exc))
    return Failure("error", _message(exc))


def _leaf(exc: BaseException | None) -> BaseException | None:
    """The exception that matters inside the groups the SDK's task groups wrap it in."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        inner = [e for e in exc.exceptions if not isinstance(e, asyncio.CancelledError)]
        exc = (inner or list(exc.exceptions))[0]
    return exc


def _bound(server: McpServer) -> float:
    return server.init_seconds if server.stage == "initialize" else server.list_seconds


def _unrunnable(server: McpServer) -> bool:
    code = server.output.returncode
    return server.sandbox.kind != "none" and code in NOT_RUNNABLE


def _closed(exc: BaseException) -> bool:
    from mcp_types import CONNECTION_CLOSED

    from mcp import MCPError

    if isinstance(exc, BaseExceptionGroup):
        return all(_closed(e) for e in exc.exceptions)
    if isinstance(exc, MCPError):
        return exc.code == CONNECTION_CLOSED
    return isinstance(exc, OSError | ConnectionError | EOFError)


def _message(exc: BaseException | None) -> str:
    if exc is None:
        return ""
    if isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        return _message(exc.exceptions[0])
    said = str(exc).strip()
    return f"{type(exc).__name__}: {said}" if said else type(exc).__name__


def _said(server: McpServer) -> str:
    output = server.output
    return output.stderr_tail() or output.garbage or ""


def describe(failure: Failure, locale: Locale, name: str) -> str:
    """The reason in words, e.g. "it did not answer initialize within 30 s"."""
    said = failure.detail
    fields = {
        "detail": said,
        "seconds": f"{failure.seconds:g}",
        "count": failure.count,
        "code": "" if failure.code is None else failure.code,
        "name": name,
    }
    line = text(f"mcp.reason.{failure.kind}", locale, **fields)
    if failure.kind in ("exited", "crashed", "call_crashed", "sandbox") and said:
        line += text("mcp.reason.it_said", locale, said=said)
    return line
