"""ACP sessions: each one a KeSi conversation fenced to its `cwd`.

An ACP client may open several sessions (Zed's threads) in one folder. Each is its own core
`Session`: its own history, read records, grants ("Allow for this session" means this one) and
bill, and it may run while another session of the same folder runs (`kesi_lsp.core.runs`);
the sandbox is chosen once per folder. Sessions live as long as the connection: this adapter
does not offer `session/load` (a restarted KeSi answers an old session id with "unknown").

Paths go back to the client spelled the way it spelled `cwd`: the core resolves symbolic links
(`/home/me/proj` may be `/data/me/proj`), but the client knows its buffers by its own path.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.core import AgentSettings, Session


@dataclass
class AcpSession:
    """One ACP session: its id, the folder as the client named it, and the core's session."""

    id: str
    cwd: Path
    core: Session
    notices: list[tuple[str, str]] = field(default_factory=list)  # said at the first prompt

    @property
    def root(self) -> Path:
        return self.core.root

    def client_path(self, path: Path) -> str:
        """`path` (resolved, inside the folder) as the client spells it."""
        try:
            return str(self.cwd / path.relative_to(self.root))
        except ValueError:
            return str(path)

    def take_notices(self) -> list[tuple[str, str]]:
        said, self.notices = self.notices, []
        return said


class AcpSessions:
    """The sessions of one connection, by id."""

    def __init__(self) -> None:
        self._by_id: dict[str, AcpSession] = {}

    def new(self, cwd: Path, settings: AgentSettings) -> AcpSession:
        session_id = f"kesi-{uuid.uuid4().hex[:16]}"
        session = AcpSession(session_id, cwd, Session(root=cwd, settings=settings))
        self._by_id[session_id] = session
        return session

    def get(self, session_id: str) -> AcpSession | None:
        return self._by_id.get(session_id)

    def all(self) -> list[AcpSession]:
        return list(self._by_id.values())
