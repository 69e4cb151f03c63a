"""Helpers of the MCP tests: the fault server's configuration, a group wired to a real
session, gate and sandbox, and waiting for what a test asserts (never a fixed sleep)."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kesi_lsp.core.approval import Approver
from kesi_lsp.core.mcp.group import McpGroup
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.sandbox import NoSandbox, Sandbox
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.settings.mcp_servers import ServerConfig, parse_servers
from kesi_lsp.core.tools import ToolResult, run_tool
from kesi_lsp.core.tools.context import ToolContext

FAULT_SERVER = str(Path(__file__).with_name("fault_server.py"))


def fault(mode: str, log: Path | None = None) -> dict[str, object]:
    """The `mcpServers` entry of the fault server in `mode`."""
    args = [FAULT_SERVER, mode, *([str(log)] if log is not None else [])]
    return {"command": sys.executable, "args": args}


def configs(value: Mapping[str, object]) -> tuple[ServerConfig, ...]:
    parsed, problems = parse_servers(value, "user")
    assert not problems, problems
    return parsed


async def bubblewrap(root: Path, environ: Mapping[str, str]) -> Sandbox:
    """The sandbox KeSi would choose here (bubblewrap on Linux with bwrap)."""
    from kesi_lsp.core.runs.sandboxes import Sandboxes

    sandbox, _ = await Sandboxes(environ).get(root, AgentSettings())
    return sandbox


@dataclass
class Wired:
    """A group of servers in a session, with the gate and the tools' context around it."""

    group: McpGroup
    ctx: ToolContext

    async def call(self, name: str, arguments: object) -> ToolResult:
        return await run_tool(name, arguments, self.ctx)

    async def stop(self) -> None:
        await self.group.stop()


def wire(
    root: Path,
    servers: Mapping[str, object],
    approver: Approver,
    *,
    sandbox: Sandbox | None = None,
    settings: AgentSettings | None = None,
    environ: Mapping[str, str] | None = None,
) -> Wired:
    env = dict(os.environ if environ is None else environ)
    session = Session(root=root, settings=settings or AgentSettings())
    box = sandbox or NoSandbox()
    group = McpGroup(
        configs(servers), session.root, box, env, session.settings.locale, settings=session.settings
    )
    gate = PermissionGate(session, approver)
    ctx = ToolContext(session=session, view=None, gate=gate, sandbox=box, environ=env, mcp=group)  # type: ignore[arg-type]
    group.start()
    return Wired(group, ctx)


async def until(check: Callable[[], Any], seconds: float = 60.0) -> Any:
    """Wait until `check()` is true (polling the state it reads), at most `seconds`."""
    deadline = time.monotonic() + seconds
    while not (value := check()):
        assert time.monotonic() < deadline, "the awaited state never came"
        await asyncio.sleep(0.05)
    return value
