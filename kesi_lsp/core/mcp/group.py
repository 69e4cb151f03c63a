"""The MCP servers of one session (a workspace folder, or an ACP session): started together in
the background, listed together, called by the model's tool name.

One bad server never harms the others: each has its own task and its own state, and a server
that fails is only a line in `kesi.mcp` and a reason in the result of a call to it. The model
is offered the tools of the servers that are ready when a request is built (`offered`), so a
server still starting never delays a run; a run that calls a tool of a starting server waits
for that server only, and at most `McpServer.wait_seconds`.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.audit import audit_mcp_call
from kesi_lsp.core.mcp.offered import PREFIX, LeftOut, Offered, offer
from kesi_lsp.core.mcp.results import failure_result, result_text
from kesi_lsp.core.mcp.server import McpServer
from kesi_lsp.core.network.access import LivePolicy
from kesi_lsp.core.network.widen import widened
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.mcp_servers import ServerConfig
from kesi_lsp.core.tools.result import ToolResult

if TYPE_CHECKING:
    from kesi_lsp.core.tools.context import ToolContext


class McpGroup:
    """The servers of one session, by name, in the order they were configured."""

    def __init__(
        self,
        configs: Sequence[ServerConfig],
        root: Path,
        sandbox: Sandbox,
        environ: Mapping[str, str],
        locale: Locale,
        on_change: Callable[[], None] = lambda: None,
        settings: AgentSettings | None = None,
    ) -> None:
        self.configs = tuple(configs)
        self.root = root
        self.policy = LivePolicy(settings or AgentSettings(locale=locale))
        """What the servers' network channels judge by (`core.network.access`)."""
        self.servers = {
            c.name: McpServer(c, root, sandbox, environ, locale, on_change, self.policy)
            for c in configs
        }
        self.locale = locale
        self._told: set[tuple[str, str]] = set()
        self._offered: dict[str, Offered] = {}

    def start(self) -> None:
        """Start every server in the background."""
        for server in self.servers.values():
            server.start()

    async def stop(self) -> None:
        """Stop every server (the session or the front end is going away)."""
        await asyncio.gather(*(s.stop() for s in self.servers.values()))

    async def wait_started(self) -> None:
        """Wait until no server is starting any more (each bounded by its own timeouts:
        doctor, `kesi-lsp mcp list`)."""
        while any(s.state == "starting" for s in self.servers.values()):
            await asyncio.gather(*(s.wait_ready() for s in self.servers.values()))

    # --- what the model is offered ---

    def offered(self) -> tuple[list[dict[str, Any]], list[str]]:
        """The tool definitions of the ready servers (stable order), and a notice for each
        tool left out that was not reported before."""
        ready = [(s.name, s.tools) for s in self.servers.values() if s.state == "ready"]
        tools, left_out = offer(ready, self.locale)
        self._offered = {t.name: t for t in tools}
        return [t.param for t in tools], self._notices(left_out)

    def _notices(self, left_out: list[LeftOut]) -> list[str]:
        said = []
        for item in left_out:
            if (item.server, item.tool) in self._told:
                continue
            self._told.add((item.server, item.tool))
            said.append(
                text(
                    "mcp.tool.left_out",
                    self.locale,
                    server=item.server,
                    tool=item.tool,
                    why=item.why,
                )
            )
        return said

    def owns(self, name: str) -> bool:
        return name.startswith(PREFIX)

    # --- calls ---

    async def call(self, name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
        """Run the model's call of `name` through the gate; never raises but for a cancel."""
        target = self._target(name)
        if target is None:
            known = text("common.list_sep", self.locale).join(sorted(self._offered)) or text(
                "common.none", self.locale
            )
            return ToolResult(text("mcp.call.unknown", self.locale, name=name, tools=known), True)
        server, tool = target
        arguments = dict(tool_input) if isinstance(tool_input, Mapping) else {}
        shown = json.dumps(arguments, ensure_ascii=False, sort_keys=True)
        answer = await ctx.gate.authorize_tool(server.name, tool, shown, arguments)
        record = _Record(ctx, server.name, tool)
        refusal = getattr(answer, "message", None)
        if refusal is not None:
            record.done(None)
            return ToolResult(refusal, True)
        timeout = ctx.session.settings.command_timeout
        self.policy.follow(ctx.session)
        outcome = await server.call(tool, arguments, timeout)
        if outcome.failure is not None:
            result = failure_result(outcome.failure, server.name, tool, self.locale)
        else:
            result = result_text(outcome.result, server.name, tool, self.locale)
        result = await _with_refusals(result, server, ctx)
        record.done(result)
        return result

    def _target(self, name: str) -> tuple[McpServer, str] | None:
        offered = self._offered.get(name)
        if offered is not None:
            server = self.servers.get(offered.server)
            return None if server is None else (server, offered.tool)
        rest = name[len(PREFIX) :] if name.startswith(PREFIX) else ""
        server_name, _, tool = rest.partition("__")
        server = self.servers.get(server_name)
        if server is None or not tool:
            return None
        return server, tool


async def _with_refusals(result: ToolResult, server: McpServer, ctx: ToolContext) -> ToolResult:
    """The call's result, then the hosts the proxy refused the server meanwhile and (mode
    `ask`) what the user answered when asked to widen, as after a command (`network.widen`);
    each also goes to the audit log."""
    refusals = server.new_refusals()
    if not refusals:
        return result

    def record(host: str, allowed: bool, decided_by: str, answer: str | None) -> None:
        if ctx.audit is not None:
            ctx.audit.network_grant(
                host,
                allowed=allowed,
                decided_by=decided_by,
                answer=answer,
                command=f"mcp:{server.name}",
            )

    told = await widened(refusals, ctx.gate, server.network_limits, ctx.emit, record)
    return ToolResult(f"{result.text}\n{told}", result.is_error, result.summary)


class _Record:
    """The call's record in the audit log (`core.audit`): who let it run (or refused it), and
    how it ended; nothing when the log is off."""

    def __init__(self, ctx: ToolContext, server: str, tool: str) -> None:
        self.ctx, self.server, self.tool = ctx, server, tool
        self.decision = ctx.gate.tool_decision(server, tool)
        self.started = time.monotonic()

    def done(self, result: ToolResult | None) -> None:
        """`result`: what the model gets back (None: refused, the server was not called)."""
        decision = self.decision
        if decision is None:
            return
        fields: dict[str, Any] = {"is_error": False}
        if result is not None:
            fields["is_error"] = result.is_error
            fields["duration_ms"] = round((time.monotonic() - self.started) * 1000)
            fields["bytes_out"] = len(result.text.encode("utf-8", "surrogatepass"))
        audit_mcp_call(
            self.ctx,
            self.server,
            self.tool,
            decided_by=decision.by,
            answer=decision.answer,
            verdict=decision.verdict,
            reason=decision.reason,
            **fields,
        )
