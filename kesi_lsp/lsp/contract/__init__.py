"""The `kesi/*` wire contract, defined once (design §2.3–§2.10, issue 25).

Every notification, request and command argument/result KeSi's own clients meet is a typed
class here; the adapter builds these and pygls sends them through the process's one converter
(`wire.plain_json_converter`, which registers `CLASSES`), camelCase on the wire. The TypeScript
declarations of `editors/vscode/src/core/protocol.ts` are checked against them by a test
(`tests/lsp/test_contract_ts.py`, over `describe.describe()`): a field added on one side only or
a type changed fails it. Other clients (Neovim, Emacs) read the same JSON.

To extend the contract: add the field or class here (a new stream kind also to
`STREAM_EVENTS` and `StreamEvent`), then the same to `protocol.ts`. Fields are additive: a
client must tolerate fields it does not know.
"""

from __future__ import annotations

from typing import Any

from kesi_lsp.lsp.contract import commands, run, stream
from kesi_lsp.lsp.contract.commands import (
    AskArgs,
    AuditArgs,
    AuditResult,
    CancelArgs,
    CancelResult,
    ChangedFile,
    ChangeOutcomeResult,
    ChangeRun,
    ChangesResult,
    CostResult,
    FailedFile,
    FixThisArgs,
    FolderArgs,
    HunkRef,
    HunksChangedParams,
    HunkView,
    KeepArgs,
    McpAccountArgs,
    McpAccountResult,
    McpResult,
    McpServerView,
    MessageResult,
    NetworkView,
    PermissionsResult,
    RuleView,
    RunStarted,
    SkippedHunk,
    StopTaskArgs,
    TaskItem,
    TasksChangedParams,
    TasksResult,
    UndoArgs,
    UndoRunArgs,
)
from kesi_lsp.lsp.contract.run import (
    Decision,
    DiagnosticsItem,
    DiagnosticsParams,
    DiagnosticsResult,
    PlanItem,
    PlanParams,
    ReviewAction,
    ReviewEditAnswer,
    ReviewEditParams,
    RunFinishedParams,
    SaveDocumentsParams,
    SaveDocumentsResult,
    VerdictChangedParams,
    VerdictView,
)
from kesi_lsp.lsp.contract.shape import ShapeError, read
from kesi_lsp.lsp.contract.stream import (
    STREAM_EVENTS,
    EditEvent,
    Nesting,
    NoticeEvent,
    StreamEvent,
    TextEvent,
    ToolEndEvent,
    ToolInputEvent,
    ToolStartEvent,
    TurnEvent,
    Usage,
    UsageEvent,
)


def _classes() -> tuple[type[Any], ...]:
    found: list[type[Any]] = []
    for module in (stream, run, commands):
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                found.append(value)
    return tuple(found)


CLASSES = _classes()
"""Every class of the contract, in the order defined."""

__all__ = [
    "CLASSES",
    "STREAM_EVENTS",
    "AskArgs",
    "AuditArgs",
    "AuditResult",
    "CancelArgs",
    "CancelResult",
    "ChangeOutcomeResult",
    "ChangeRun",
    "ChangedFile",
    "ChangesResult",
    "CostResult",
    "Decision",
    "DiagnosticsItem",
    "DiagnosticsParams",
    "DiagnosticsResult",
    "EditEvent",
    "FailedFile",
    "FixThisArgs",
    "FolderArgs",
    "HunkRef",
    "HunkView",
    "HunksChangedParams",
    "KeepArgs",
    "McpAccountArgs",
    "McpAccountResult",
    "McpResult",
    "McpServerView",
    "MessageResult",
    "Nesting",
    "NetworkView",
    "NoticeEvent",
    "PermissionsResult",
    "PlanItem",
    "PlanParams",
    "ReviewAction",
    "ReviewEditAnswer",
    "ReviewEditParams",
    "RuleView",
    "RunFinishedParams",
    "RunStarted",
    "SaveDocumentsParams",
    "SaveDocumentsResult",
    "ShapeError",
    "SkippedHunk",
    "StopTaskArgs",
    "StreamEvent",
    "TaskItem",
    "TasksChangedParams",
    "TasksResult",
    "TextEvent",
    "ToolEndEvent",
    "ToolInputEvent",
    "ToolStartEvent",
    "TurnEvent",
    "UndoArgs",
    "UndoRunArgs",
    "Usage",
    "UsageEvent",
    "VerdictChangedParams",
    "VerdictView",
    "read",
]
