"""The servers' agent (issue 14): loaded ahead of time, one model client per key and address for
the server's life, and a sandbox chosen ahead of time still announced by the first run."""

from __future__ import annotations

import asyncio
from pathlib import Path

from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest
from kesi_lsp.core.disk import DiskWorkspace
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.runs.agent import CoreAgent
from kesi_lsp.core.runs.drive import Runtime
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.scripted_api import reply, script
from tests.plugins.scripted_api import StartServer


class Deny:
    async def approve_command(self, request: CommandRequest) -> Choice:
        return Choice.DENY

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.DENY


def context(root: Path, environ: dict[str, str]) -> ToolContext:
    session = Session(root=root, settings=AgentSettings())
    return ToolContext(
        session=session,
        view=DiskWorkspace(root, Deny()),
        gate=PermissionGate(session, Deny()),
        environ=environ,
    )


async def test_prepare_builds_the_client_every_later_run_reuses(
    scripted_api: StartServer, tmp_path: Path
) -> None:
    api = scripted_api(script(reply("One."), reply("Two.")))
    environ = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": api.base_url}
    agent = CoreAgent()
    await agent.prepare(AgentSettings(), environ)
    prepared = dict(agent._models)
    assert len(prepared) == 1
    first = await agent(context(tmp_path, environ), "hello")
    second = await agent(context(tmp_path, environ), "again")
    assert (first.status, first.text, second.text) == ("done", "One.", "Two.")
    assert agent._models == prepared  # the same client, not one per run
    await agent.aclose()
    assert agent._models == {}


async def test_runs_that_start_while_it_loads_share_the_load(
    scripted_api: StartServer, tmp_path: Path
) -> None:
    api = scripted_api(script(reply("A."), reply("B.")))
    environ = {"ANTHROPIC_API_KEY": "sk-ant-test", "ANTHROPIC_BASE_URL": api.base_url}
    agent = CoreAgent()
    a, b = await asyncio.gather(
        agent(context(tmp_path / "a", environ), "one"),
        agent(context(tmp_path / "b", environ), "two"),
    )
    assert {a.text, b.text} == {"A.", "B."}
    assert len(agent._models) == 1
    await agent.aclose()


async def test_without_a_key_prepare_keeps_nothing_and_the_run_says_how(tmp_path: Path) -> None:
    agent = CoreAgent()
    await agent.prepare(AgentSettings(), {})
    assert agent._models == {}
    finished = await agent(context(tmp_path, {}), "hello")
    assert finished.status == "failed" and "ANTHROPIC_API_KEY" in finished.text


async def test_a_sandbox_chosen_ahead_of_time_is_announced_by_the_first_run(
    tmp_path: Path,
) -> None:
    async def runner(ctx: ToolContext, prompt: str) -> object:
        raise AssertionError("not run here")

    runtime = Runtime({"PATH": "/usr/bin:/bin"}, runner)  # type: ignore[arg-type]
    settings = AgentSettings(sandbox="off")
    await runtime.prepare([(tmp_path, settings)])  # a runner without `prepare`: only sandboxes
    assert (tmp_path, "off") in runtime.sandboxes.chosen
    sandbox, fresh = await runtime.sandboxes.get(tmp_path, settings)
    assert fresh, "the first run still says what confines its commands"
    again, fresh_again = await runtime.sandboxes.get(tmp_path, settings)
    assert again is sandbox and not fresh_again


def test_a_preparation_steps_aside_while_the_editor_is_busy() -> None:
    """The finder the loading installs waits before each module while `busy()`, only in the
    loading thread, and never longer than its bound (so the loading always gets done)."""
    import threading
    import time

    from kesi_lsp.core.runs import loading

    asked: list[float] = []

    def busy() -> bool:
        asked.append(time.monotonic())
        return len(asked) < 4  # busy for three looks, then quiet

    finder = loading._StepAside(threading.get_ident(), busy)
    started = time.monotonic()
    assert finder.find_spec("some.module", None) is None  # it never finds anything itself
    assert len(asked) == 4 and time.monotonic() - started >= 3 * loading.PAUSE_SECONDS
    other: list[object] = []
    elsewhere = threading.Thread(target=lambda: other.append(finder.find_spec("x", None)))
    asked.clear()
    elsewhere.start()
    elsewhere.join()
    assert other == [None] and asked == []  # other threads' imports are never held up
    always = loading._StepAside(threading.get_ident(), lambda: True)
    started = time.monotonic()
    always.find_spec("y", None)
    assert time.monotonic() - started < loading.MAX_PAUSE_SECONDS + 0.2
