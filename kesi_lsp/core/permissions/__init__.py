"""The permission gate: deny first, then ask, then allow (seed Day 14).

`PermissionGate` is what the tools consult before anything that changes the world: a shell
command (classified, maybe asked) or a file write (reviewed unless the file has a session grant).
"""

from __future__ import annotations

from pathlib import Path

from kesi_lsp.catalog import text
from kesi_lsp.core.approval import Approver, Choice, CommandRequest
from kesi_lsp.core.session import Session


class PermissionGate:
    """Decide, per session, whether a command may run and whether a write needs review."""

    def __init__(self, session: Session, approver: Approver) -> None:
        self._session = session
        self._approver = approver

    async def authorize_command(self, command: str) -> str | None:
        """Return None when `command` may run, else the refusal text for the model."""
        key = command.strip()
        if key in self._session.grants.commands:
            return None
        choice = await self._approver.approve_command(CommandRequest(command=key, reason=""))
        if choice is Choice.DENY:
            return text("permissions.refused_command", self._session.settings.locale)
        if choice is Choice.ALLOW_SESSION:
            self._session.grants.commands.add(key)
        return None

    def needs_review(self, path: Path) -> bool:
        """A write to `path` is shown to the user unless the file was granted for the session."""
        return path not in self._session.grants.files

    def remember_file(self, path: Path) -> None:
        """Record "allow for this session" for writes to `path` (resolved)."""
        self._session.grants.files.add(path)
