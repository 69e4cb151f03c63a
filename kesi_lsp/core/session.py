"""One agent session per workspace folder: its history, what it read, what it may do, its bill.

The terminal KeSi kept these as module globals (`BASE_DIR`, `READ_VERSIONS`, `GRANTED_*`). An
editor can have several workspace folders at once, so each gets its own `Session` and nothing
is shared between them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kesi_lsp.core.background import BackgroundTasks
from kesi_lsp.core.changes.store import ChangeSets
from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.instructions import ProjectInstructions
from kesi_lsp.core.plan import Plan
from kesi_lsp.core.reads.parts import ReadParts
from kesi_lsp.core.reads.texts import ReadTexts
from kesi_lsp.core.settings.agent import AgentSettings

if TYPE_CHECKING:
    from anthropic.types import MessageParam


@dataclass
class Grants:
    """What the user allowed for the session (seed Day 14): exact command strings, resolved
    file paths and MCP tools (`server:tool`). Shown, revoked and checked by
    `kesi_lsp.core.permissions`. `hosts` are the hosts the user let sandboxed commands reach
    (`core.network`); `hosts_refused` those they said no to, not asked about again this
    session."""

    commands: set[str] = field(default_factory=set)
    files: set[Path] = field(default_factory=set)
    tools: set[str] = field(default_factory=set)
    hosts: set[str] = field(default_factory=set)
    hosts_refused: set[str] = field(default_factory=set)

    def clear(self) -> None:
        """Revoke everything (seed `/revoke`)."""
        self.commands.clear()
        self.files.clear()
        self.tools.clear()
        self.hosts.clear()
        self.hosts_refused.clear()


@dataclass
class Session:
    """State of one workspace folder's conversation with the agent.

    `reads` maps a resolved path to the sha256 (hex) of the whole text the agent last read
    (some of) from it; write_file refuses to overwrite a file without a current, matching
    record. `read_parts` says which lines of that text were seen when it was read only in
    parts (`kesi_lsp.core.reads.parts`): write_file refuses to overwrite lines never seen.
    `read_texts` keeps those texts for a while (Day 9 compares them with the text now).
    `changes` holds the change set of every run that changed files (design §2.9); it outlives
    `reset`, which clears the conversation, not what the user can still undo. `plan` is the
    model's plan (the todo tool); `instructions` the folder's AGENTS.md, as last looked at.

    `on_checkpoint`, when the host set one, is called whenever the conversation reached a
    state worth keeping (`running`: a run is still under way); the host saves it so the next
    start can resume (`kesi_lsp.core.persistence`). The core never knows where it goes.
    `notices` are what the next run should say before anything else (a conversation that was
    resumed, a saved one that could not be used), taken by `take_notices`. `windows` is each
    model's context window as the API said it (`kesi_lsp.core.model.window`), asked once per
    session; a reset keeps it (it is the model's, not the conversation's). `tasks` are the
    background tasks the session's commands started (`kesi_lsp.core.background`); a reset
    stops them all, as the folder going away and the server exiting do.
    session; a reset keeps it (it is the model's, not the conversation's). `mcp_key` names
    the session's MCP servers when they are its own rather than its folder's (ACP).
    """

    root: Path
    settings: AgentSettings = field(default_factory=AgentSettings)
    history: list[MessageParam] = field(default_factory=list)
    reads: dict[Path, str] = field(default_factory=dict)
    read_parts: dict[Path, ReadParts] = field(default_factory=dict)
    grants: Grants = field(default_factory=Grants)
    usage: Usage = field(default_factory=Usage)
    read_texts: ReadTexts = field(default_factory=ReadTexts)
    changes: ChangeSets = field(default_factory=ChangeSets)
    plan: Plan = ()
    instructions: ProjectInstructions = field(default_factory=ProjectInstructions)
    on_checkpoint: Callable[[Session, bool], None] | None = field(
        default=None, repr=False, compare=False
    )
    notices: list[str] = field(default_factory=list, compare=False)
    windows: dict[str, int] = field(default_factory=dict, compare=False)
    tasks: BackgroundTasks = field(default_factory=BackgroundTasks, compare=False, repr=False)
    mcp_key: str = field(default="", compare=False)

    @property
    def mcp_group_key(self) -> str:
        """Which MCP servers are this session's (`core.mcp.hub`): its own key (an ACP
        session's id), else its folder's."""
        return self.mcp_key or str(self.root)

    def __post_init__(self) -> None:
        self.root = self.root.resolve()

    def take_notices(self) -> list[str]:
        """The notices waiting for the next run, now said (so they are said once)."""
        taken, self.notices[:] = list(self.notices), []
        return taken

    def checkpoint(self, *, running: bool) -> None:
        """The conversation is in a state worth keeping; tell the host, if it listens."""
        if self.on_checkpoint is not None:
            self.on_checkpoint(self, running)

    def reset(self) -> None:
        """Forget the conversation, the read records and the plan, and stop the background
        tasks; keep grants and the bill (seed /reset). The project's instructions stay loaded:
        they are the folder's, not the conversation's."""
        self.history.clear()
        self.reads.clear()
        self.read_texts.clear()
        self.read_parts.clear()
        self.plan = ()
        self.tasks.reset()
