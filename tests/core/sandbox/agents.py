"""The tools as the loop wires them, in a sandbox playground: shared by the sandboxed
run_command tests."""

from __future__ import annotations

from dataclasses import dataclass

from kesi_lsp.core.approval import Choice
from kesi_lsp.core.disk import DiskWorkspace
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.tools import ToolResult, run_tool
from kesi_lsp.core.tools.context import ToolContext
from tests.core.approvers import AlwaysAllow
from tests.core.sandbox.conftest import Playground


@dataclass
class Agent:
    """The tools as the loop wires them, for the playground's workspace."""

    ctx: ToolContext
    approver: AlwaysAllow

    async def run(self, command: str) -> ToolResult:
        return await run_tool("run_command", {"command": command}, self.ctx)


def agent(
    playground: Playground,
    sandbox: Sandbox,
    *,
    locale: str = "en",
    timeout: float = 120,
    pass_env: tuple[str, ...] = (),
) -> Agent:
    settings = AgentSettings(locale=locale, command_timeout=timeout, pass_env=pass_env)  # type: ignore[arg-type]
    session = Session(playground.root, settings)
    approver = AlwaysAllow(Choice.ALLOW_ONCE)
    gate = PermissionGate(session, approver, home=playground.home)
    view = DiskWorkspace(session.root, approver, locale=settings.locale)
    ctx = ToolContext(session, view, gate, sandbox=sandbox, environ=playground.environ)
    return Agent(ctx, approver)
