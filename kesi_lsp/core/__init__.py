"""The KeSi agent, editor-agnostic, and the one surface its front ends may use.

Nothing in this package imports pygls or lsprotocol, reads the process's working directory,
stdin or stdout, or prints. It meets the outside world through three seams:

- a model client (`ModelClient`): an async stream of model events;
- an approver (`Approver`): async "allow once / allow for session / deny", turned into a typed
  `Allowed` / `Refused` answer by `consult`, the one path every question takes;
- a workspace view (`WorkspaceView`): a file's current text, the delivery of an edit;

and it reports what happens as typed events (`Event`). A front end (the LSP and ACP adapters,
the demo, the doctor) drives it through what this module exports and nothing else (a test
checks): a session per folder (`Session`, `AgentSettings`), runs (`Runs`, `drive` with the
front end's `RunFrontend`, the `Runtime` whose `CoreAgent` both front ends run), saved
conversations (`ConversationStore`), the task text (`fix_task`, `ask_task`), the permission
views (`describe_grants`, ...), the meter's words (`bill_line`, `cost_lines`), the change sets
of design §2.9 (`ChangeSets`, `select_changes`, `keep_changes`, `plan_undo`, `undone`, ...),
the disk's one atomic write (`write_change`), MCP (`mcp_report`, `mcp_login`, ...) and text
helpers. The names load on first use (module `__getattr__`): importing the surface costs
nothing, and a front end that never runs the agent never imports the `anthropic` SDK.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from kesi_lsp.core.surface import EXPORTS as _EXPORTS

__all__ = [  # the same names as `_EXPORTS` (a test checks)
    "APPROVAL_MODES",
    "DEFAULT_MODEL",
    "MAX_EXCERPT_BYTES",
    "MAX_EXCERPT_LINES",
    "PLAN_TOOL",
    "SANDBOX_MODES",
    "SETTINGS_SECTION",
    "SETTING_RULES",
    "AgentRunner",
    "AgentSettings",
    "Allowed",
    "Answer",
    "ApprovalMode",
    "Approver",
    "Attachment",
    "AuditLog",
    "AuditTrail",
    "BackgroundTask",
    "Block",
    "ChangeOutcome",
    "ChangeRefusal",
    "ChangeSet",
    "ChangeSets",
    "ChangeTarget",
    "Choice",
    "CommandFinished",
    "CommandRequest",
    "ConversationStore",
    "CoreAgent",
    "Delivery",
    "DeliveryPipeline",
    "DeliveryStatus",
    "DiskWorkspace",
    "Drift",
    "EditApplied",
    "EditRequest",
    "EditorPort",
    "EditorProblem",
    "EditorProblems",
    "EnvironmentSettings",
    "Event",
    "EventLines",
    "EventSink",
    "Excerpt",
    "FileChange",
    "FileChanges",
    "FileText",
    "FileUndo",
    "GrantsView",
    "HostRequest",
    "Hunk",
    "HunkState",
    "Landed",
    "LimitKind",
    "McpServerView",
    "ModelClient",
    "Nested",
    "NextStep",
    "NoSandbox",
    "Notice",
    "NoticeKind",
    "ParsedSettings",
    "Plan",
    "PlanItem",
    "PlanUpdated",
    "Problem",
    "ProblemsReported",
    "ProblemsUnavailableError",
    "PromptInterrupted",
    "ProxyProbe",
    "Purpose",
    "Redactor",
    "Refused",
    "Route",
    "Run",
    "RunFinished",
    "RunFrontend",
    "RunStatus",
    "Runs",
    "Runtime",
    "SandboxMode",
    "Saved",
    "ServerConfig",
    "ServersRequest",
    "Session",
    "SessionBusyError",
    "Severity",
    "Shown",
    "Snapshot",
    "TaskView",
    "TextChange",
    "TextDelta",
    "ToolCall",
    "ToolContext",
    "ToolFinished",
    "ToolInputProgress",
    "ToolStarted",
    "TurnStarted",
    "UndoPlan",
    "Usage",
    "UsageReported",
    "Verdict",
    "WorkspaceView",
    "ask_task",
    "attached_task",
    "audit_directory",
    "audit_lines",
    "audit_mcp_call",
    "audit_network_grant",
    "audit_records",
    "bill_line",
    "clip_note",
    "clipped_last",
    "consult",
    "context_window",
    "cost_lines",
    "delivery_failed",
    "describe_api_error",
    "describe_grants",
    "describe_rule",
    "describe_sandbox",
    "diff_blocks",
    "drive",
    "end_line",
    "end_lines",
    "environment_settings",
    "find_rg",
    "finish_delivery",
    "fix_task",
    "grants_lines",
    "hunk_where",
    "input_so_far",
    "is_ignored",
    "keep_changes",
    "line_span",
    "lines_of",
    "mcp_login",
    "mcp_logout",
    "mcp_report",
    "nested_line",
    "network_rules_line",
    "next_step",
    "numbered",
    "outcome_lines",
    "parse_rules",
    "parse_servers",
    "parse_settings",
    "parse_since",
    "plan_current",
    "plan_item_lines",
    "plan_line",
    "plan_title",
    "plan_undo",
    "probe_proxy",
    "progress_line",
    "redactor_for",
    "refusal",
    "revoke",
    "revoked_line",
    "rules_line",
    "sandbox_status_line",
    "select_changes",
    "select_excerpt",
    "select_sandbox",
    "settings_section",
    "settle_all",
    "split_lines",
    "stale_words",
    "state_directory",
    "step_label",
    "task_line",
    "task_log_line",
    "task_state_words",
    "tool_detail",
    "tool_input_line",
    "undone",
    "unified_diff",
    "write_change",
]


def __getattr__(name: str) -> object:
    """Load `name` from its module on first use (and keep it, so this runs once per name)."""
    where = _EXPORTS.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attribute = where.partition(":")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])


if TYPE_CHECKING:
    from kesi_lsp.core.approval import (
        Allowed,
        Answer,
        Approver,
        Choice,
        CommandRequest,
        EditRequest,
        HostRequest,
        PromptInterrupted,
        Refused,
        ServersRequest,
        ToolCall,
        consult,
        refusal,
    )
    from kesi_lsp.core.audit import (
        AuditLog,
        AuditTrail,
        audit_directory,
        audit_lines,
        audit_mcp_call,
        audit_network_grant,
        audit_records,
        parse_since,
    )
    from kesi_lsp.core.background import BackgroundTask, TaskView
    from kesi_lsp.core.background.words import log_line as task_log_line
    from kesi_lsp.core.background.words import state_words as task_state_words
    from kesi_lsp.core.background.words import task_line
    from kesi_lsp.core.changes.actions import Outcome as ChangeOutcome
    from kesi_lsp.core.changes.actions import Refusal as ChangeRefusal
    from kesi_lsp.core.changes.actions import Target as ChangeTarget
    from kesi_lsp.core.changes.actions import keep as keep_changes
    from kesi_lsp.core.changes.actions import select as select_changes
    from kesi_lsp.core.changes.hunks import Block, Hunk, HunkState, diff_blocks, lines_of
    from kesi_lsp.core.changes.model import FileChanges
    from kesi_lsp.core.changes.notes import where as hunk_where
    from kesi_lsp.core.changes.report import outcome_lines
    from kesi_lsp.core.changes.run import settle_all
    from kesi_lsp.core.changes.store import ChangeSet, ChangeSets
    from kesi_lsp.core.changes.tracking import TextChange
    from kesi_lsp.core.changes.undo import FileUndo, UndoPlan, plan_undo, undone
    from kesi_lsp.core.cost.meter import Usage, cost_lines
    from kesi_lsp.core.cost.meter import describe as bill_line
    from kesi_lsp.core.delivery import (
        DeliveryPipeline,
        Drift,
        EditorPort,
        Landed,
        Route,
        Saved,
        Shown,
        stale_words,
    )
    from kesi_lsp.core.delivery import failed as delivery_failed
    from kesi_lsp.core.delivery import finish as finish_delivery
    from kesi_lsp.core.diagnostics.editor import (
        EditorProblem,
        EditorProblems,
        ProblemsUnavailableError,
        Snapshot,
    )
    from kesi_lsp.core.diff import split_lines, unified_diff
    from kesi_lsp.core.disk import DiskWorkspace, write_change
    from kesi_lsp.core.events import (
        CommandFinished,
        EditApplied,
        Event,
        EventSink,
        LimitKind,
        Nested,
        Notice,
        NoticeKind,
        PlanUpdated,
        ProblemsReported,
        Purpose,
        RunFinished,
        RunStatus,
        TextDelta,
        ToolFinished,
        ToolInputProgress,
        ToolStarted,
        TurnStarted,
        UsageReported,
    )
    from kesi_lsp.core.mcp.account import mcp_login, mcp_logout
    from kesi_lsp.core.mcp.report import mcp_report
    from kesi_lsp.core.mcp.view import ServerView as McpServerView
    from kesi_lsp.core.model.anthropic import ModelClient
    from kesi_lsp.core.model.describe import describe_api_error
    from kesi_lsp.core.model.window import context_window
    from kesi_lsp.core.network.probe import ProxyProbe, probe_proxy
    from kesi_lsp.core.paths import is_ignored
    from kesi_lsp.core.permissions.grants import (
        GrantsView,
        describe_grants,
        grants_lines,
        network_rules_line,
        revoke,
        revoked_line,
    )
    from kesi_lsp.core.permissions.listing import describe_rule, rules_line
    from kesi_lsp.core.persistence import ConversationStore, state_directory
    from kesi_lsp.core.plan import Plan, PlanItem, plan_line, step_label
    from kesi_lsp.core.redaction import Redactor, redactor_for
    from kesi_lsp.core.runs.agent import AgentRunner, CoreAgent
    from kesi_lsp.core.runs.drive import RunFrontend, Runtime, drive
    from kesi_lsp.core.runs.next_step import NextStep, next_step
    from kesi_lsp.core.runs.registry import Run, Runs, SessionBusyError
    from kesi_lsp.core.sandbox import NoSandbox
    from kesi_lsp.core.sandbox.selection import describe as describe_sandbox
    from kesi_lsp.core.sandbox.selection import select_sandbox
    from kesi_lsp.core.sandbox.selection import status_line as sandbox_status_line
    from kesi_lsp.core.session import Session
    from kesi_lsp.core.settings.agent import (
        APPROVAL_MODES,
        DEFAULT_MODEL,
        SANDBOX_MODES,
        AgentSettings,
        ApprovalMode,
        SandboxMode,
    )
    from kesi_lsp.core.settings.mcp_servers import ServerConfig, parse_servers
    from kesi_lsp.core.settings.parse import RULES as SETTING_RULES
    from kesi_lsp.core.settings.parse import SECTION as SETTINGS_SECTION
    from kesi_lsp.core.settings.parse import (
        EnvironmentSettings,
        ParsedSettings,
        environment_settings,
        parse_settings,
    )
    from kesi_lsp.core.settings.parse import kesi_section as settings_section
    from kesi_lsp.core.settings.permission_rules import parse_rules
    from kesi_lsp.core.story import (
        PLAN_TOOL,
        EventLines,
        end_line,
        end_lines,
        input_so_far,
        nested_line,
        plan_current,
        plan_item_lines,
        plan_title,
        progress_line,
        tool_detail,
        tool_input_line,
    )
    from kesi_lsp.core.tasks import (
        MAX_EXCERPT_BYTES,
        MAX_EXCERPT_LINES,
        Attachment,
        Excerpt,
        Problem,
        Severity,
        ask_task,
        attached_task,
        clip_note,
        clipped_last,
        fix_task,
        line_span,
        numbered,
        select_excerpt,
    )
    from kesi_lsp.core.tools.context import ToolContext
    from kesi_lsp.core.tools.ripgrep import find_rg
    from kesi_lsp.core.verification.verdict import Verdict
    from kesi_lsp.core.workspace import (
        Delivery,
        DeliveryStatus,
        FileChange,
        FileText,
        WorkspaceView,
    )
