"""Parallel reads (Day 06: asyncio.to_thread with asyncio.gather): several read-only tools of
one reply run at the same time, results stay in the model's order, a cancel stops them all, and
edits and commands still run one at a time, in order, after the reads before them."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from kesi_lsp.core.events import ToolFinished, ToolStarted
from kesi_lsp.core.history import check_history
from kesi_lsp.core.workspace import FileText
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import Agent, EditorLikeView, MakeAgent

DELAY = 0.4


class SlowDisk(EditorLikeView):
    """Every read waits DELAY seconds in a worker thread (a network disk); records overlaps."""

    delay = DELAY
    running = 0
    most = 0
    log: list[tuple[str, str, float]]
    three: asyncio.Event

    async def read_text(self, path: Path) -> FileText:
        self.log.append(("start", path.name, time.monotonic()))
        self.running += 1
        self.most = max(self.most, self.running)
        if self.running == 3:
            self.three.set()
        try:
            await asyncio.to_thread(time.sleep, self.delay)
            return await super().read_text(path)
        finally:
            self.running -= 1
            self.log.append(("end", path.name, time.monotonic()))


def slow(agent: Agent) -> SlowDisk:
    root = agent.ctx.session.root
    view = SlowDisk(root, agent.approver, locale="en")
    view.log = []
    view.three = asyncio.Event()
    agent.ctx.view = view
    for name in ("a.py", "b.py", "c.py"):
        (root / name).write_text(f"# {name}\n", encoding="utf-8")
    return view


def result_texts(agent: Agent, index: int) -> list[str]:
    content = agent.history[index]["content"]
    return [str(block["content"]) for block in content]


async def test_three_reads_in_one_reply_run_at_once_and_answer_in_order(
    make_agent: MakeAgent,
) -> None:
    reads = [tool_use("read_file", {"file_path": n}) for n in ("a.py", "b.py", "c.py")]
    agent = make_agent(script(reply("Reading all three.", *reads), reply("Done.")), locale="en")
    view = slow(agent)
    started = time.monotonic()
    finished = await agent.ask("read them")
    wall = time.monotonic() - started
    assert finished.status == "done"
    assert view.most == 3
    assert wall < 2 * DELAY + 0.5  # one read's wait, not three (plus two model round trips)
    assert result_texts(agent, 2) == ["# a.py\n", "# b.py\n", "# c.py\n"]
    ids = [e.tool_use_id for e in agent.of(ToolFinished)]
    assert ids == [e.tool_use_id for e in agent.of(ToolStarted)]  # the model's order
    assert check_history(agent.history) == []


async def test_an_edit_and_a_command_wait_for_the_reads_before_them(make_agent: MakeAgent) -> None:
    calls = [
        tool_use("read_file", {"file_path": "a.py"}),
        tool_use("read_file", {"file_path": "b.py"}),
        tool_use("edit_file", {"file_path": "a.py", "old_string": "# a.py", "new_string": "# A"}),
        tool_use("run_command", {"command": "cat a.py > seen.txt"}),
        tool_use("read_file", {"file_path": "c.py"}),
    ]
    agent = make_agent(script(reply("Go.", *calls), reply("Done.")), locale="en")
    view = slow(agent)
    root = agent.ctx.session.root
    finished = await agent.ask("change a")
    assert finished.status == "done"
    order = [(kind, name) for kind, name, _ in view.log]
    # both first reads overlap; the edit re-reads a.py only after both ended; c.py comes last
    assert set(order[:2]) == {("start", "a.py"), ("start", "b.py")}
    assert order.index(("end", "b.py")) < order.index(("start", "a.py"), 2)  # the re-read
    assert order[-2:] == [("start", "c.py"), ("end", "c.py")]
    assert (root / "seen.txt").read_text() == "# A\n"  # the command ran after the edit
    texts = result_texts(agent, 2)
    assert texts[0] == "# a.py\n" and texts[1] == "# b.py\n"
    assert texts[2] == "Replaced (starting at line 1)." and texts[4] == "# c.py\n"


async def test_a_cancel_stops_every_read_of_the_batch(make_agent: MakeAgent) -> None:
    reads = [tool_use("read_file", {"file_path": n}) for n in ("a.py", "b.py", "c.py")]
    agent = make_agent(
        script(
            reply("Reading.", *reads, tool_use("run_command", {"command": "touch ran.txt"})),
            reply("Fine, go on.", expect={"last_user_text_contains": "next"}),
        ),
        locale="en",
    )
    view = slow(agent)
    view.delay = 2.0  # a thread cannot be stopped: it ends on its own, the run does not wait
    task = asyncio.create_task(agent.ask("read"))
    await view.three.wait()
    started = time.monotonic()
    task.cancel()
    finished = await task
    assert time.monotonic() - started < 1.5
    assert finished.status == "cancelled"
    results = agent.history[2]["content"]
    assert [r["is_error"] for r in results] == [True, True, True, True]
    assert [r["content"] for r in results[:3]] == ["Error: the user interrupted this tool."] * 3
    assert results[3]["content"] == "Error: this round was interrupted; the tool was not run."
    assert not (agent.ctx.session.root / "ran.txt").exists()
    assert agent.ctx.session.reads == {}
    assert check_history(agent.history) == []
    view.delay = 0.0
    assert (await agent.ask("next")).status == "done"
