"""A temporary workspace wired exactly as the agent wires it: session, disk view, gate, tools."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from kesi_lsp.catalog import Locale
from kesi_lsp.core.disk import DiskWorkspace
from kesi_lsp.core.events import Event
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.tools import ToolResult, run_tool
from kesi_lsp.core.tools.context import ToolContext
from tests.core.approvers import AlwaysAllow, Recording


@dataclass
class Workspace:
    """One session over `root`, with `outside` a sibling folder the fence must protect."""

    root: Path
    outside: Path
    approver: Recording
    session: Session
    view: DiskWorkspace
    gate: PermissionGate
    ctx: ToolContext
    events: list[Event] = field(default_factory=list)

    async def call(
        self, name: str, tool_input: object = None, /, **arguments: object
    ) -> ToolResult:
        """Run tool `name` through the public registry, as the loop does."""
        payload = arguments if tool_input is None else tool_input
        return await run_tool(name, payload, self.ctx)

    def write(self, rel: str, content: str | bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))
        return path

    def read(self, rel: str) -> bytes:
        return (self.root / rel).read_bytes()

    def set_timeout(self, seconds: float) -> None:
        self.session.settings = replace(self.session.settings, command_timeout=seconds)

    def snapshot(self) -> dict[str, bytes | None]:
        """Every path under the workspace and the outside folder, with file bytes."""
        seen: dict[str, bytes | None] = {}
        for base in (self.root, self.outside):
            for dirpath, dirnames, filenames in os.walk(base):
                for name in dirnames:
                    seen[str(Path(dirpath, name))] = None
                for name in filenames:
                    path = Path(dirpath, name)
                    seen[str(path)] = path.read_bytes() if not path.is_symlink() else None
        return seen


def make_workspace(
    tmp_path: Path,
    approver: Recording | None = None,
    *,
    locale: Locale = "en",
    environ: Mapping[str, str] | None = None,
) -> Workspace:
    root = tmp_path / "ws"
    outside = tmp_path / "outside"
    root.mkdir(parents=True, exist_ok=True)
    outside.mkdir(parents=True, exist_ok=True)
    (outside / "secret.txt").write_text("outside secret content\n", encoding="utf-8")
    approver = approver if approver is not None else AlwaysAllow()
    session = Session(root=root, settings=AgentSettings(locale=locale))
    view = DiskWorkspace(session.root, approver, locale=locale)
    gate = PermissionGate(session, approver)
    events: list[Event] = []
    env = dict(environ) if environ is not None else {"PATH": os.environ.get("PATH", "")}
    ctx = ToolContext(session=session, view=view, gate=gate, environ=env, emit=events.append)
    return Workspace(root.resolve(), outside.resolve(), approver, session, view, gate, ctx, events)


def names(folder: Path) -> list[str]:
    """The sorted entry names of `folder` (a plain function: test bodies are async)."""
    return sorted(p.name for p in folder.iterdir())
