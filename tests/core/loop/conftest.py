"""A harness for loop tests: a session in a temp folder, the real tools, the real SDK, and a
scripted server. The approver says yes once to everything and remembers what it was asked."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest
from kesi_lsp.core.disk import DiskWorkspace
from kesi_lsp.core.events import Event, Notice, RunFinished, TextDelta, ToolFinished
from kesi_lsp.core.history import check_history
from kesi_lsp.core.loop import run_agent
from kesi_lsp.core.model.anthropic import ModelClient
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.scripted_api import Script, Step
from tests.plugins.scripted_api import FixtureServer, StartServer


class AllowAll:
    """An approver that says yes once to everything, and remembers what it was asked."""

    def __init__(self) -> None:
        self.asked: list[CommandRequest | EditRequest] = []

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.asked.append(request)
        return Choice.ALLOW_ONCE

    async def approve_edit(self, request: EditRequest) -> Choice:
        self.asked.append(request)
        return Choice.ALLOW_ONCE


class EditorLikeView(DiskWorkspace):
    """Disk as the workspace, plus `unsaved`: files an editor would report as modified."""

    unsaved: tuple[Path, ...] = ()

    def unsaved_files(self) -> tuple[Path, ...]:
        return self.unsaved


@dataclass
class Agent:
    """One session talking to one scripted server through the real SDK."""

    server: FixtureServer
    ctx: ToolContext
    model: ModelClient
    approver: AllowAll
    events: list[Event] = field(default_factory=list)

    async def ask(self, prompt: str) -> RunFinished:
        return await run_agent(self.ctx, prompt, self.model)

    @property
    def history(self) -> list[Any]:
        return self.ctx.session.history

    @property
    def roles(self) -> list[str]:
        return [m["role"] for m in self.history]

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def notices(self, kind: str) -> list[str]:
        return [e.text for e in self.of(Notice) if e.kind == kind]

    def streamed_text(self) -> list[str]:
        return [e.text for e in self.of(TextDelta)]

    def tool_results(self) -> list[ToolFinished]:
        return self.of(ToolFinished)

    def assert_history_sound(self) -> None:
        assert check_history(self.history) == []


MakeAgent = Callable[..., Agent]


@pytest.fixture
async def make_agent(scripted_api: StartServer, tmp_path: Path) -> AsyncIterator[MakeAgent]:
    """`make_agent(script, locale="zh-TW", max_retries=2, timeout=None, hooks=None, **settings)`
    (`hooks`: the scripted server's keyword arguments, e.g. `choose_step`)."""
    models: list[ModelClient] = []

    def make(
        steps: Script | Sequence[Step],
        *,
        locale: str = "zh-TW",
        max_retries: int = 2,
        timeout: float | None = None,
        unsaved: Sequence[str] = (),
        hooks: Mapping[str, Any] | None = None,
        **settings: Any,
    ) -> Agent:
        server = scripted_api(steps, **(hooks or {}))
        workspace = tmp_path / "work"
        workspace.mkdir(exist_ok=True)
        home = tmp_path / "home"
        home.mkdir(exist_ok=True)
        agent_settings = AgentSettings(locale=locale, **settings)  # type: ignore[arg-type]
        session = Session(root=workspace, settings=agent_settings)
        approver = AllowAll()
        environ = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": server.base_url}
        model = ModelClient(agent_settings, environ, max_retries=max_retries, timeout=timeout)
        models.append(model)
        events: list[Event] = []
        view = EditorLikeView(workspace, approver, locale=agent_settings.locale)
        view.unsaved = tuple(workspace / rel for rel in unsaved)
        ctx = ToolContext(
            session=session,
            view=view,
            gate=PermissionGate(session, approver, home=home),
            environ={"HOME": str(home), "PATH": "/usr/bin:/bin"},
            emit=events.append,
        )
        return Agent(server=server, ctx=ctx, model=model, approver=approver, events=events)

    yield make
    for model in models:
        await model.aclose()
