"""The approver seam: how the core asks a human "may I?".

The terminal KeSi called `input()`; here the question is a value handed to whoever hosts the
core (the LSP adapter turns it into `window/showMessageRequest`, tests answer from a script).
Any failure to get an answer must come back as `Choice.DENY`: the gate fails closed.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol


class Choice(enum.Enum):
    """The three answers the seed offers: y = this time, a = this session, N = no."""

    ALLOW_ONCE = "once"
    ALLOW_SESSION = "session"
    DENY = "deny"


@dataclass(frozen=True)
class CommandRequest:
    """A shell command the policy wants a human to approve, and why it asks."""

    command: str
    reason: str


@dataclass(frozen=True)
class EditRequest:
    """A reviewed file change: what the user sees before an edit lands.

    `before` is None for a new file. `diff` is a unified diff of before -> after with
    `a/<rel>` and `b/<rel>` headers.
    """

    tool: str
    path: Path
    rel: str
    before: str | None
    after: str
    diff: str


class Approver(Protocol):
    """Ask a human. Implementations must never raise for a missing or broken UI: deny instead."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        """Return the user's answer for running `request.command`."""
        ...

    async def approve_edit(self, request: EditRequest) -> Choice:
        """Return the user's answer for applying the change shown in `request`."""
        ...


class DenyAll:
    """The approver of last resort: nobody to ask means no (seed: 沒有人可以問，自動拒絕)."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        return Choice.DENY

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.DENY
