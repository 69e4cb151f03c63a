"""What a tool call may use: the session, the workspace view, the gate, the sandbox, the sink."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from kesi_lsp.catalog import Locale
from kesi_lsp.core.audit.trail import AuditTrail
from kesi_lsp.core.changes.run import RunChanges
from kesi_lsp.core.diagnostics.watch import ProblemWatch
from kesi_lsp.core.events import EventSink, discard
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.sandbox import NoSandbox, Sandbox
from kesi_lsp.core.session import Session
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.workspace import WorkspaceView

if TYPE_CHECKING:
    from kesi_lsp.core.cost.bill import RunBill
    from kesi_lsp.core.model.anthropic import ModelClient
    from kesi_lsp.core.network.access import NetworkAccess


class McpTools(Protocol):
    """A session's MCP servers as the tools see them (`kesi_lsp.core.mcp.group.McpGroup`)."""

    def offered(self) -> tuple[list[dict[str, Any]], list[str]]:
        """The tool definitions of the ready servers, and notices of tools left out."""
        ...

    def owns(self, name: str) -> bool:
        """Whether `name` is an MCP tool's name (`mcp__...`)."""
        ...

    async def call(self, name: str, tool_input: object, ctx: ToolContext) -> ToolResult:
        """Run the call through the gate; never raises but for a cancel."""
        ...


@dataclass
class ToolContext:
    """Everything the nine tools (`TOOL_NAMES`) need, passed in (never from globals or the process).

    `environ` is the host environment the shell child starts from; the sandbox scrubs it.
    `changes` records what the run lands in its session's change sets (None: not recorded).
    `problems` watches the editor's diagnostics around changes (None: the editor cannot say,
    and nothing is claimed about them).
    `network` opens the allow-list proxy for each sandboxed command (`core.network`; None: no
    proxy, the sandbox's network stays closed).
    `model` and `bill` are set by the loop for the run it drives: the search sub-agent calls
    the model through the one and charges the other (None outside a run).
    `audit` records commands, edits, MCP calls and network grants in the folder's audit log
    (`core.audit`; None: the log is off or there is none).
    `mcp` is the session's MCP servers (`kesi_lsp.core.mcp`), None when it has none.
    """

    session: Session
    view: WorkspaceView
    gate: PermissionGate
    sandbox: Sandbox = field(default_factory=NoSandbox)
    environ: Mapping[str, str] = field(default_factory=dict)
    emit: EventSink = discard
    changes: RunChanges | None = None
    problems: ProblemWatch | None = None
    model: ModelClient | None = None
    bill: RunBill | None = None
    audit: AuditTrail | None = None
    mcp: McpTools | None = None
    network: NetworkAccess | None = None

    @property
    def locale(self) -> Locale:
        return self.session.settings.locale
