"""A run's life below every front end: one per session, one end whatever happens, notices once.

The front end here is a recording stand-in for the LSP or ACP adapter: the lifecycle must give
every one of them the same story, so it is checked once, in the core, without a wire.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kesi_lsp.core import (
    AgentSettings,
    DiskWorkspace,
    Event,
    Notice,
    Run,
    RunFinished,
    Runs,
    Runtime,
    Session,
    SessionBusyError,
    ToolContext,
    Usage,
    drive,
)
from tests.core.approvers import AlwaysAllow


@dataclass
class Frontend:
    """Records what a run tells its front end."""

    root: Path
    events: list[Event] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    finished: list[RunFinished] = field(default_factory=list)
    prepared: int = 0
    begin_blocks: bool = False

    def __post_init__(self) -> None:
        self.approver = AlwaysAllow()
        self.view = DiskWorkspace(self.root, self.approver)

    async def begin(self) -> None:
        if self.begin_blocks:
            await asyncio.Event().wait()

    async def prepare(self) -> None:
        self.prepared += 1

    def emit(self, event: Event) -> None:
        self.events.append(event)

    @property
    def diagnostics(self) -> None:
        return None

    def unconfined(self, status: str) -> None:
        self.warnings.append(status)

    def finish(self, finished: RunFinished) -> None:
        self.finished.append(finished)

    def notices(self, kind: str) -> list[str]:
        return [e.text for e in self.events if isinstance(e, Notice) and e.kind == kind]


def session(tmp_path: Path, **settings: object) -> Session:
    return Session(tmp_path, AgentSettings(sandbox="off", **settings))  # type: ignore[arg-type]


async def answering(ctx: ToolContext, prompt: str) -> RunFinished:
    return RunFinished("done", f"did {prompt}", Usage(requests=1))


async def test_a_run_ends_once_and_the_sandbox_is_announced_once_per_folder(
    tmp_path: Path,
) -> None:
    runtime = Runtime({}, answering)
    first, second = Frontend(tmp_path), Frontend(tmp_path)
    done = await drive(Run(session(tmp_path), "fix it"), runtime, first)
    assert first.finished == [done] and done.status == "done" and done.text == "did fix it"
    assert first.prepared == 1
    [line] = first.notices("sandbox")
    assert first.warnings == [line]  # unconfined: warned where the user cannot miss it
    # Day 15's start-up lines, the working directory first: 工作目錄：…, then 指令沙箱：…
    kinds = [e.kind for e in first.events if isinstance(e, Notice)]
    assert kinds == ["workspace", "sandbox"]
    assert first.notices("workspace") == [f"Working directory: {session(tmp_path).root}"]
    await drive(Run(session(tmp_path), "again"), runtime, second)
    assert second.notices("sandbox") == [] and second.warnings == []
    assert second.notices("workspace") == []
    assert len(second.finished) == 1


async def test_the_start_up_lines_are_the_seeds_in_zh_tw_and_the_folder_is_said_once(
    tmp_path: Path,
) -> None:
    runtime = Runtime({}, answering)
    first, second = Frontend(tmp_path), Frontend(tmp_path)
    zh = session(tmp_path, locale="zh-TW")
    await drive(Run(zh, "x"), runtime, first)
    assert first.notices("workspace") == [f"工作目錄：{zh.root}"]
    assert first.notices("sandbox") == ["指令沙箱：關閉（設定 kesi.sandbox = off）"]
    # Another sandbox setting is a new sandbox to announce; the folder is the same one.
    other = Session(tmp_path, AgentSettings(sandbox="auto", locale="zh-TW"))
    await drive(Run(other, "y"), runtime, second)
    assert second.notices("workspace") == []
    [line] = second.notices("sandbox")
    assert line.startswith("指令沙箱：")


async def test_accepted_edits_are_announced_once_per_folder(tmp_path: Path) -> None:
    runtime = Runtime({}, answering)
    frontends = [Frontend(tmp_path), Frontend(tmp_path)]
    for frontend in frontends:
        await drive(Run(session(tmp_path, approvals="acceptEdits"), "x"), runtime, frontend)
    assert len(frontends[0].notices("approvals")) == 1
    assert frontends[1].notices("approvals") == []


async def test_a_crash_in_the_agent_is_a_failed_run_not_a_lost_one(tmp_path: Path) -> None:
    async def crashing(ctx: ToolContext, prompt: str) -> RunFinished:
        raise RuntimeError("boom")

    frontend = Frontend(tmp_path)
    done = await drive(Run(session(tmp_path), "x"), Runtime({}, crashing), frontend)
    assert frontend.finished == [done] and done.status == "failed"
    assert "RuntimeError: boom" in done.text


async def test_a_sandbox_the_machine_lacks_fails_the_run_with_the_reason(tmp_path: Path) -> None:
    frontend = Frontend(tmp_path)
    run = Run(Session(tmp_path, AgentSettings(sandbox="seatbelt")), "x")  # Linux: no Seatbelt
    done = await drive(run, Runtime({}, answering), frontend)
    assert frontend.finished == [done] and done.status == "failed" and "seatbelt" in done.text
    assert frontend.prepared == 0  # the agent never started


async def test_cancel_before_the_agent_starts_still_ends_the_run(tmp_path: Path) -> None:
    frontend = Frontend(tmp_path, begin_blocks=True)
    runs = Runs()
    run = runs.start(
        Run(session(tmp_path), "x"), lambda r: drive(r, Runtime({}, answering), frontend)
    )
    await asyncio.sleep(0)
    assert run.cancel()
    assert run.task is not None
    done = await run.task
    assert frontend.finished == [done] and done.status == "cancelled" and done.text == "Cancelled."
    assert runs.live() == [] and not run.cancel()


async def test_cancel_is_the_agents_ctrl_c_and_one_run_per_session(tmp_path: Path) -> None:
    started = asyncio.Event()

    async def waiting(ctx: ToolContext, prompt: str) -> RunFinished:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            return RunFinished("cancelled", "stopped like Ctrl-C", Usage())
        raise AssertionError("unreachable")

    runs, runtime = Runs(), Runtime({}, waiting)
    frontend = Frontend(tmp_path)
    first = session(tmp_path)
    run = runs.start(Run(first, "x"), lambda r: drive(r, runtime, frontend))
    await started.wait()
    assert runs.active_in(run.root) is run and runs.get(run.id) is run
    assert runs.active_for(first) is run
    with pytest.raises(SessionBusyError) as busy:
        runs.start(Run(first, "y"), lambda r: drive(r, runtime, Frontend(tmp_path)))
    assert busy.value.active is run
    assert run.cancel()
    assert run.task is not None
    done = await run.task
    assert done.text == "stopped like Ctrl-C" and frontend.finished == [done]
    assert runs.active_in(run.root) is None


async def test_stopping_every_run_ends_each_once(tmp_path: Path) -> None:
    inside: list[ToolContext] = []
    both_inside = asyncio.Event()

    async def stubborn(ctx: ToolContext, prompt: str) -> RunFinished:
        inside.append(ctx)
        if len(inside) == 2:
            both_inside.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    runs, runtime = Runs(), Runtime({}, stubborn)
    folders = [tmp_path / "a", tmp_path / "b"]
    frontends = [Frontend(folder) for folder in folders]
    for folder, frontend in zip(folders, frontends, strict=True):
        folder.mkdir()
        runs.start(Run(session(folder), "x"), lambda r, f=frontend: drive(r, runtime, f))
    await asyncio.wait_for(both_inside.wait(), 10)  # both runs are inside their agent
    await runs.stop_all(grace=5)
    assert [[f.status for f in frontend.finished] for frontend in frontends] == [
        ["cancelled"],
        ["cancelled"],
    ]


async def test_two_sessions_of_one_folder_may_run_side_by_side(tmp_path: Path) -> None:
    """An ACP client's two threads in one folder are two conversations: neither waits for the
    other (their read records keep one from writing over what the other changed)."""
    release = asyncio.Event()

    async def waiting(ctx: ToolContext, prompt: str) -> RunFinished:
        await release.wait()
        return RunFinished("done", prompt, Usage())

    runs, runtime = Runs(), Runtime({}, waiting)
    one, two = session(tmp_path), session(tmp_path)
    a = runs.start(Run(one, "a"), lambda r: drive(r, runtime, Frontend(tmp_path)))
    b = runs.start(Run(two, "b"), lambda r: drive(r, runtime, Frontend(tmp_path)))
    assert runs.active_for(one) is a and runs.active_for(two) is b
    release.set()
    assert a.task is not None and b.task is not None
    assert [(await a.task).text, (await b.task).text] == ["a", "b"]
    assert runs.live() == []
