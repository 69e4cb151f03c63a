"""Compaction over the real wire: `kesi-lsp` as a subprocess, the real SDK, the strict scripted
Messages API. Automatic (near the budget), on demand (`kesi.compact`), cancelled mid-summary,
and what a client without `kesi/stream` reads in its log."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, stall_after
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.working_loop import SMALL_BUDGET, SUMMARY, files, first_text, notices, read, until
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

ANSWER = reply("A and B.", expect={"message_count": 3})  # the summary, then the latest round


async def test_a_long_conversation_is_summarised_and_the_user_is_told(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(read("a.py"), read("b.py"), reply(SUMMARY), ANSWER))
    files(project, "a.py", "b.py")
    async with kesi_client(
        "vscode+kesi", [project], env=api_env(api), init_options=SMALL_BUDGET
    ) as client:
        done = await client.run("kesi.ask", {"prompt": "What do a.py and b.py define?"})
        assert done["status"] == "done" and done["text"] == "A and B."
        assert done["usage"]["requests"] == 4  # the summary is on the run's bill
        told = notices(client, done["runId"], "compaction")
        assert len(told) == 2 and told[1].startswith("Summarised 3 earlier messages")
        bills = [u for u in client.stream(done["runId"], "usage") if u["purpose"] == "compaction"]
        assert len(bills) == 1 and bills[0]["request"]["requests"] == 1
        summary_request = api.requests[2].body
        assert summary_request["tool_choice"] == {"type": "none"}
        assert SUMMARY in first_text(api.requests[3].body["messages"][0])


async def test_a_log_client_sees_the_notice_and_the_summary_as_its_own_bill_line(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(read("a.py"), read("b.py"), reply(SUMMARY), ANSWER))
    files(project, "a.py", "b.py")
    async with kesi_client("emacs", [project], env=api_env(api), init_options=SMALL_BUDGET) as c:
        done = await c.run("kesi.ask", {"prompt": "What do a.py and b.py define?"})
        assert done["status"] == "done"
        lines = c.log_lines()
        assert any(line.startswith("  (Summarised 3 earlier messages") for line in lines)
        bill = [line for line in lines if line.startswith("  (summary of the conversation:")]
        assert len(bill) == 1 and "cache read" in bill[0] and "$" in bill[0]


async def test_kesi_compact_summarises_on_demand(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(
        script(
            read("a.py"),
            read("b.py"),
            reply("a.py and b.py define A and B."),
            reply(SUMMARY),
            reply("Yes.", expect={"message_count": 3, "last_user_text_contains": "Still there?"}),
        )
    )
    files(project, "a.py", "b.py")
    init = {"kesi": {"locale": "en"}}
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=init) as c:
        await c.run("kesi.ask", {"prompt": "What do a.py and b.py define?"})
        done = await c.run("kesi.compact", {})
        assert done["status"] == "done", done
        assert done["text"].startswith("The conversation now holds a summary")
        assert done["usage"]["requests"] == 1
        assert [u["purpose"] for u in c.stream(done["runId"], "usage")] == ["compaction"]
        again = await c.run("kesi.ask", {"prompt": "Still there?"})
        assert again["text"] == "Yes."  # the summary, the last answer, the new prompt


async def test_cancelling_a_summary_leaves_the_conversation_as_it_was(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            read("a.py"),
            read("b.py"),
            reply("a.py and b.py define A and B."),
            stall_after(3, SUMMARY, seconds=30),
            reply("Yes.", expect={"message_count": 7, "last_user_text_contains": "Still there?"}),
        )
    )
    files(project, "a.py", "b.py")
    init = {"kesi": {"locale": "en"}}
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=init) as c:
        await c.run("kesi.ask", {"prompt": "What do a.py and b.py define?"})
        started = await c.command("kesi.compact", {})
        await until(lambda: any(r.stalled for r in api.requests))
        assert await c.command("kesi.cancel", {"runId": started["runId"]}) == {"cancelled": True}
        done = await c.wait_finished(started["runId"])
        assert done["status"] == "cancelled"
        assert any("interrupted" in n for n in notices(c, started["runId"], "compaction"))
        # The next request carries the six messages as they were, and the strict API takes it.
        again = await c.run("kesi.ask", {"prompt": "Still there?"})
        assert again["status"] == "done" and again["text"] == "Yes."


async def test_kesi_compact_while_a_run_works_is_refused(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(stall_after(3, "Thinking", seconds=30)))
    async with kesi_client("vscode+kesi", [project], env=api_env(api)) as c:
        started = await c.command("kesi.ask", {"prompt": "Think."})
        await until(lambda: any(r.stalled for r in api.requests))
        with pytest.raises(Exception, match="summarised when the run ends"):
            await c.command("kesi.compact", {})
        await c.command("kesi.cancel", {"runId": started["runId"]})
        await c.wait_finished(started["runId"])
