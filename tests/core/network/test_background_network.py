"""A background task's network requests, in the real bubblewrap sandbox through the proxy, in
mode `ask` (issue 28 with issue 27's allow-list): a host not on the list is refused at once (a
403 in the task's output, never a request held while nobody is there to answer); the model's
next read of the task names the host and asks the user, once; a host allowed there is reached
by the task's very next request, without restarting it. The refusal and the answer are in the
audit log with the task's command, as a foreground command's are (issue 29)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kesi_lsp.core import AuditLog, AuditTrail, audit_lines, redactor_for
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.background import BackgroundTask
from kesi_lsp.core.tools import run_tool
from tests.core.network.networked import HostAnswers, networked
from tests.core.network.servers import access_to, site
from tests.core.sandbox.conftest import Playground

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]

POLLER = (
    "while [ ! -e go ]; do sleep 0.05; done; "
    "while true; do curl -sS -o /dev/null -w 'status=%{http_code}\\n' "
    "http://new.test/hello.txt; sleep 0.2; done"
)


async def printed(task: BackgroundTask, wanted: bytes, seconds: float = 20) -> None:
    """Wait until the task's output holds `wanted` (each write wakes the wait)."""
    async with asyncio.timeout(seconds):
        while wanted not in task.ring.since(0).data:
            await task.output_after(task.ring.written)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("answer", "then", "audited"),
    [
        (Choice.ALLOW_SESSION, b"status=200", "allowed, asked, you allowed it for the session"),
        (Choice.DENY, b"status=403", "blocked, asked, you denied it"),
    ],
)
async def test_a_task_refused_a_host_is_asked_about_at_its_next_read(
    answer: Choice, then: bytes, audited: str, playground: Playground, pages: Path, tmp_path: Path
) -> None:
    answers = HostAnswers(answer)
    log = AuditLog(tmp_path / "state" / "kesi" / "audit")
    with site(pages) as web:
        me = networked(playground, access_to(new_test=web.port), answers)
        me.ctx.audit = AuditTrail(log, playground.root, "run-1", redactor_for({}, "en"))
        start = {"command": POLLER, "background": True}
        started = await run_tool("run_command", start, me.ctx)
        assert started.text.startswith("Started background task 1"), started.text
        task = me.ctx.session.tasks.get("1")
        assert task is not None
        (playground.root / "go").write_text("")
        await printed(task, b"status=403")  # refused at once, not held for an answer
        assert answers.asked == []  # nobody is asked while no tool call is there to say so

        read = await run_tool("task_output", {"task_id": "1"}, me.ctx)
        assert answers.asked == ["new.test"]
        assert "status=403" in read.text
        assert read.text.count("KeSi's sandbox refused network access to new.test") == 1
        if answer is Choice.ALLOW_SESSION:
            assert "The user allowed network access to new.test for this session" in read.text
        else:
            assert "The user did not allow network access to new.test. Do not try" in read.text

        mark = task.ring.written
        await printed(task, then + b"\n" + then)  # its own next requests, the same task
        assert then in task.ring.since(mark).data
        again = await run_tool("task_output", {"task_id": "1"}, me.ctx)
        assert answers.asked == ["new.test"]  # asked once
        assert "refused network access" not in again.text
        await run_tool("task_stop", {"task_id": "1"}, me.ctx)
    assert (web.hits != []) is (answer is Choice.ALLOW_SESSION)
    await asyncio.to_thread(log.flush)
    lines, _ = await asyncio.to_thread(audit_lines, log, playground.root, "en", enabled=True)
    assert [line.split(" ", 2)[2] for line in lines if " network " in line] == [
        f"network new.test: {audited}"
    ]
    (record,) = [r for r in log.records(playground.root) if r["kind"] == "network"]
    assert record["command"] == POLLER
