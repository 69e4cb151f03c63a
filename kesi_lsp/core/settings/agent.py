"""The agent's knobs, as plain values the core can trust.

Front ends deliver settings as loose JSON or environment variables; `kesi_lsp.core.settings.parse`
validates them and builds this frozen dataclass, so nothing in the core ever sees a malformed
value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from kesi_lsp.catalog import Editor, Locale
from kesi_lsp.core.settings.mcp_servers import ServerConfig
from kesi_lsp.core.settings.network import NetworkMode
from kesi_lsp.core.settings.permission_rules import PermissionRules

SandboxMode = Literal["auto", "bubblewrap", "seatbelt", "off"]
SANDBOX_MODES: Final[tuple[SandboxMode, ...]] = ("auto", "bubblewrap", "seatbelt", "off")

ApprovalMode = Literal["ask", "acceptEdits"]
APPROVAL_MODES: Final[tuple[ApprovalMode, ...]] = ("ask", "acceptEdits")

DEFAULT_MODEL: Final = "claude-haiku-4-5"


@dataclass(frozen=True)
class AgentSettings:
    """Everything a session needs to know about how to run the agent.

    Defaults follow the seed: `MAX_TURNS` 20, `MAX_TOOL_FAILURES` 3, `COMMAND_TIMEOUT` 120 s.
    `max_tokens` is larger than the seed's 1024 because an editor agent writes whole functions
    and a cut-off reply runs no tool (Day 10). `context_trimming` clears old, large tool results
    once they are superseded or the history passes `context_budget` estimated tokens
    (`kesi_lsp.core.trim`). `approvals` "acceptEdits" lets file edits land without a review
    (they still go through the editor, so they can be undone); commands are gated as ever.
    `compaction` summarises older turns when the history passes `context_budget` (trimming then
    clears what is left), and when the API says the prompt is too long
    (`kesi_lsp.core.compaction`).
    `stream_idle_timeout` closes a stream that sends nothing for that many seconds
    (`kesi_lsp.core.watchdog`). `search_max_turns` bounds the search sub-agent's own loop.
    `change_sets` keeps every run's changes reviewable and revertible (design §2.9).
    `max_message_megabytes` is the largest message a front end reads from its client; a bigger
    one is refused unread (`kesi_lsp.lsp.framing`, `kesi_lsp.acp.transport`).
    `permissions` are the user's rules (`core.permissions.rules`), from user-level settings only.
    `respect_gitignore` leaves what the workspace's `.gitignore` files ignore out of list_files
    and glob, as rg leaves it out of grep (`kesi_lsp.core.tools.gitignore`).
    `command_memory_limit` is the memory (MiB) a sandboxed command may use, 0 for no limit
    (`core.sandbox.bubblewrap.Limits`).
    `pass_env` names host variables that shell commands get although they look like
    credentials (`core.sandbox.env`), from user-level settings only; their values are still
    redacted from what a command prints.
    `audit_log` records commands, edits, MCP calls and network grants in the folder's audit
    log (`core.audit`), from user-level settings only.
    `mcp_servers` are the MCP servers of the `mcpServers` setting (`settings.mcp_servers`),
    from user-level settings only, like `permissions`: a folder must not start programs.
    `task_timeout` is how long a background task may run before it is stopped (seconds,
    `kesi_lsp.core.background`).
    `run_end_message` shows one message when a run ends (status, verdict, bill) in clients
    that do not stream the run themselves (lsp-mode, Vim, Neovim without KeSi's plugin).
    `sandbox_network` is the sandboxed commands' network (`core.network`): `off` (none), `ask`
    (a proxy with the allow-list; a refused host is named and the user asked), `allowList`
    (refused without asking); `network_allow` / `network_deny` are its host patterns
    (`settings.network`), from user-level settings only, like `permissions`.
    `editor` is not a user setting: the front end says which editor it serves, so a sentence
    that sends the user to the seed's `/reset` names that editor's own command.
    """

    model: str = DEFAULT_MODEL
    max_tokens: int = 8192
    max_turns: int = 20
    max_tool_failures: int = 3
    command_timeout: float = 120.0
    task_timeout: float = 1800.0
    sandbox: SandboxMode = "auto"
    command_memory_limit: int = 4096
    sandbox_network: NetworkMode = "ask"
    network_allow: tuple[str, ...] = ()
    network_deny: tuple[str, ...] = ()
    approvals: ApprovalMode = "ask"
    prompt_caching: bool = True
    context_trimming: bool = True
    respect_gitignore: bool = True
    context_budget: int = 50_000
    compaction: bool = True
    stream_idle_timeout: float = 60.0
    search_max_turns: int = 10
    locale: Locale = "en"
    editor: Editor = "lsp"
    change_sets: bool = True
    run_end_message: bool = True
    max_message_megabytes: int = 64
    api_key: str | None = None
    base_url: str | None = None
    permissions: PermissionRules = field(default_factory=PermissionRules)
    pass_env: tuple[str, ...] = ()
    audit_log: bool = True
    mcp_servers: tuple[ServerConfig, ...] = ()
