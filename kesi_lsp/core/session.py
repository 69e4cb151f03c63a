"""One agent session per workspace folder: its history, what it read, what it may do, its bill.

The terminal KeSi kept these as module globals (`BASE_DIR`, `READ_VERSIONS`, `GRANTED_*`). An
editor can have several workspace folders at once, so each gets its own `Session` and nothing
is shared between them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kesi_lsp.core.changes.store import ChangeSets
from kesi_lsp.core.meter import Usage
from kesi_lsp.core.read_texts import ReadTexts
from kesi_lsp.core.settings import AgentSettings

if TYPE_CHECKING:
    from anthropic.types import MessageParam


@dataclass
class Grants:
    """What the user allowed for the session (seed Day 14): exact command strings and resolved
    file paths. Shown, revoked and checked by `kesi_lsp.core.permissions`."""

    commands: set[str] = field(default_factory=set)
    files: set[Path] = field(default_factory=set)

    def clear(self) -> None:
        """Revoke everything (seed `/revoke`)."""
        self.commands.clear()
        self.files.clear()


@dataclass
class Session:
    """State of one workspace folder's conversation with the agent.

    `reads` maps a resolved path to the sha256 (hex) of exactly the text the agent last read
    from it; write_file refuses to overwrite a file without a current, matching record.
    `read_texts` keeps those texts for a while (Day 9 compares them with the text now).
    `changes` holds the change set of every run that changed files (design §2.9); it outlives
    `reset`, which clears the conversation, not what the user can still undo.
    """

    root: Path
    settings: AgentSettings = field(default_factory=AgentSettings)
    history: list[MessageParam] = field(default_factory=list)
    reads: dict[Path, str] = field(default_factory=dict)
    grants: Grants = field(default_factory=Grants)
    usage: Usage = field(default_factory=Usage)
    read_texts: ReadTexts = field(default_factory=ReadTexts)
    changes: ChangeSets = field(default_factory=ChangeSets)

    def __post_init__(self) -> None:
        self.root = self.root.resolve()

    def reset(self) -> None:
        """Forget the conversation and the read records; keep grants and the bill (seed /reset)."""
        self.history.clear()
        self.reads.clear()
        self.read_texts.clear()
