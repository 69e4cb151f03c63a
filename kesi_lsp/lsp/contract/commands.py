"""The `kesi.*` commands (design §2.3, §2.9): each one object argument and the result it answers.

An argument is read strictly (`shape.read`): a field of the wrong type or a required one
missing is an InvalidParams error naming it, before anything runs. Unknown fields are ignored
(an editor may send more than a command reads). Results carry `lines` or a `message`, the
answer in the session's words, beside their figures.
"""

from __future__ import annotations

from typing import Literal

import attrs
from attrs import field, frozen
from lsprotocol import types

from kesi_lsp.lsp.contract.run import VerdictView
from kesi_lsp.lsp.contract.shape import ABSENT, NONEMPTY
from kesi_lsp.lsp.contract.stream import Usage

HunkState = Literal["pending", "kept", "undone", "modified"]

# -- arguments --------------------------------------------------------------------------------


@frozen(kw_only=True)
class FixThisArgs:
    """`kesi.fixThis`: fix the code in `range` of the file `uri` (the diagnostics there, the
    user's instruction)."""

    uri: str = field(metadata=NONEMPTY)
    range: types.Range
    diagnostics: list[types.Diagnostic] = field(factory=list)
    instruction: str | None = None


@frozen(kw_only=True)
class AskArgs:
    """`kesi.ask`: a task in the user's words, optionally about a file and a range of it."""

    prompt: str
    uri: str | None = None
    range: types.Range | None = None


@frozen(kw_only=True)
class CancelArgs:
    """`kesi.cancel`: that run, else the run of `uri`'s folder, else every run."""

    run_id: str | None = None
    uri: str | None = None


@frozen(kw_only=True)
class FolderArgs:
    """`kesi.reset`, `kesi.cost`, `kesi.permissions`, `kesi.revoke`, `kesi.compact`,
    `kesi.changes`: the session of the folder that holds `uri` (else the first folder)."""

    uri: str | None = None


@frozen(kw_only=True)
class KeepArgs:
    """`kesi.keep`: that hunk, that file or that run (default: the newest run); `all`: every
    pending hunk of the folder."""

    uri: str | None = None
    run_id: str | None = None
    hunk_id: str | None = None
    all: bool | None = None


@frozen(kw_only=True)
class UndoArgs:
    """`kesi.undo`: that hunk, that file or that run (default: the newest run)."""

    uri: str | None = None
    run_id: str | None = None
    hunk_id: str | None = None


@frozen(kw_only=True)
class UndoRunArgs:
    """`kesi.undoRun`: every hunk of that run (default: the folder's newest)."""

    uri: str | None = None
    run_id: str | None = None


@frozen(kw_only=True)
class AuditArgs:
    """`kesi.audit`: the audit log of the folder that holds `uri` (else the first folder), its
    newest `limit` records (default 50)."""

    uri: str | None = None
    limit: int | None = None


# -- results ----------------------------------------------------------------------------------


@frozen(kw_only=True)
class RunStarted:
    """`kesi.fixThis`, `kesi.ask`, `kesi.compact`: the run started in the background."""

    run_id: str


@frozen(kw_only=True)
class CancelResult:
    cancelled: bool


@frozen(kw_only=True)
class MessageResult:
    """`kesi.reset`, `kesi.revoke`: the seed's answer (`/reset`, `/revoke`) in the locale."""

    message: str


@frozen(kw_only=True)
class CostResult(Usage):
    """`kesi.cost`: the session's usage, and `lines`, the seed's `/cost` report of it."""

    lines: list[str]


@frozen(kw_only=True)
class NetworkView:
    """The sandbox's network settings in force: `mode` (`sandboxNetwork`), the allowed and the
    denied host patterns."""

    mode: Literal["off", "ask", "allowList"]
    allow: list[str]
    deny: list[str]


@frozen(kw_only=True)
class RuleView:
    """A permission rule in force: what it does, to what, the pattern, where it was set."""

    kind: str
    target: str
    pattern: str
    source: Literal["initializationOptions", "userSettings"]


@frozen(kw_only=True)
class PermissionsResult:
    """`kesi.permissions`: the session's grants (`hosts`: hosts sandboxed commands may reach
    this session), the approvals mode, the rules, the network's settings, and `lines`, the
    seed's `/permissions` listing of them."""

    commands: list[str]
    files: list[str]
    hosts: list[str]
    approvals: Literal["ask", "acceptEdits"]
    rules: list[RuleView]
    network: NetworkView
    lines: list[str]
    tools: list[str] = attrs.Factory(list)
    """MCP tools allowed for the session, as `mcp:<server>:<tool>`."""


@frozen(kw_only=True)
class McpServerView:
    """One MCP server as `kesi.mcp` lists it: where it came from (`user`, `init`, `acp`,
    `workspace`), how KeSi reaches it, its state and the reason in words, its tools."""

    name: str
    source: str
    transport: Literal["stdio", "http", "sse"]
    state: Literal["starting", "ready", "failed", "auth", "stopped"]
    reason: str | None = None
    tools: list[str]


@frozen(kw_only=True)
class McpResult:
    """`kesi.mcp`: the folder's MCP servers, and `lines`, the listing rendered by the server."""

    servers: list[McpServerView]
    lines: list[str]


@frozen(kw_only=True)
class McpAccountArgs:
    """`kesi.mcpLogin`, `kesi.mcpLogout`: the remote MCP server `server` of the folder that
    holds `uri` (else the first folder)."""

    server: str = field(metadata=NONEMPTY)
    uri: str | None = None


@frozen(kw_only=True)
class McpAccountResult:
    """`kesi.mcpLogin`: the sign-in began (`lines`: the address to open) or why not;
    `kesi.mcpLogout`: whether there was a sign-in to delete. `lines` in the locale."""

    ok: bool
    lines: list[str]


@frozen(kw_only=True)
class HunkView:
    """A hunk as `kesi.changes` lists it: `lines`, how many lines it covers now (0: a point
    where lines were removed); `label` its row in words, where it is and its code
    (`lines 8–9 · return round(x, 2)`); `base` (added later: a client must not require it)
    the lines it replaced, so a client can show the hunk's diff."""

    id: str
    range: types.Range
    state: HunkState
    added: int
    removed: int
    lines: int
    label: str
    base: str | None = field(default=None, metadata=ABSENT)


@frozen(kw_only=True)
class ChangedFile:
    uri: str
    path: str
    created: bool
    deleted: bool
    taken_back: bool
    gone: bool
    hunks: list[HunkView]


@frozen(kw_only=True)
class ChangeRun:
    """A run's change set: its id, the first line of its task, its files; `label` its row in
    words (`Fix this · shop/rates.py:8 · 20:42 · verified`) and `verified` its verdict as it
    stands now (after an undo: "verified before your undo", status `unverified`)."""

    run_id: str
    task: str
    files: list[ChangedFile]
    label: str
    verified: VerdictView | None


@frozen(kw_only=True)
class ChangesResult:
    """`kesi.changes`: runs, newest first, and `lines`, the same listing in the locale."""

    runs: list[ChangeRun]
    lines: list[str]


@frozen(kw_only=True)
class HunksChangedParams:
    """`kesi/hunks` (to clients with `experimental.kesi.hunks`, in place of the pending hunks'
    `KeSi` diagnostics): the pending hunks of the file `uri` now, across runs, top to bottom,
    sent whenever they change; empty once none is left. Such a client shows them itself (VS
    Code: the lines KeSi wrote, and what they replaced, drawn in the editor)."""

    uri: str
    hunks: list[HunkView]


@frozen(kw_only=True)
class HunkRef:
    path: str
    hunk_id: str | None


@frozen(kw_only=True)
class SkippedHunk(HunkRef):
    """Left alone, and why (`modified`: the user typed in it; `gone`, `undone`...)."""

    reason: str


@frozen(kw_only=True)
class FailedFile:
    path: str
    reason: str


@frozen(kw_only=True)
class ChangeOutcomeResult:
    """`kesi.keep`, `kesi.undo`, `kesi.undoRun`: what was done, what already was, what was
    left alone and why, what failed; `lines` says it in the locale (`message`: joined)."""

    message: str
    lines: list[str]
    done: list[HunkRef]
    already: list[HunkRef]
    skipped: list[SkippedHunk]
    failed: list[FailedFile]


@frozen(kw_only=True)
class AuditResult:
    """`kesi.audit`: the folder's newest audit records as `lines` (a title first, or the one
    sentence saying there are none or why there is no log), the file's `path` (None: no log)
    and whether recording is `enabled` (the `auditLog` setting)."""

    lines: list[str]
    path: str | None
    enabled: bool


# -- background tasks (issue 28) ----------------------------------------------------------------

TaskState = Literal["running", "exited", "stopped", "timed_out"]


@frozen(kw_only=True)
class StopTaskArgs:
    """`kesi.stopTask`: stop background task `taskId` of the folder that holds `uri` (else
    the first folder)."""

    task_id: str = field(metadata=NONEMPTY)
    uri: str | None = None


@frozen(kw_only=True)
class TaskItem:
    """One background task: what it runs, its state, when it started (ISO 8601), its exit
    code once it ended, its last output line, and `line`, all of it rendered by the server."""

    task_id: str
    command: str
    state: TaskState
    started: str
    exit_code: int | None
    last_line: str
    line: str


@frozen(kw_only=True)
class TasksResult:
    """`kesi.tasks`: the folder's background tasks, newest last; `lines` says it in the
    session's words (one line per task, or that there are none)."""

    tasks: list[TaskItem]
    lines: list[str]


@frozen(kw_only=True)
class TasksChangedParams:
    """`kesi/tasks` (to clients with `experimental.kesi.stream`): a task of folder `uri`
    started or ended; `line` says which in words (log-only clients get it as a log line),
    `tasks` and `lines` are the folder's listing now, as `kesi.tasks` answers."""

    uri: str
    line: str
    tasks: list[TaskItem]
    lines: list[str]
