"""The search sub-agent over the real wire: its lines arrive nested under its call (clients
indent them), its requests are on the bill per round and as a sub-total, a log client reads
them indented, and cancelling the run cancels the search with the next request valid."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.scripted_api import event_names, reply, script, stall_after, tool_use
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.working_loop import until
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

TASK = "Where is LIMIT set?"
ASK = reply("Let me have that searched.", tool_use("search_agent", {"task": TASK}, id="toolu_s"))
SEARCH = [
    reply("Searching.", tool_use("grep", {"pattern": "LIMIT ="})),
    reply("LIMIT is 42, set at config.py:1."),
]
DONE = reply("LIMIT is 42.", expect={"last_tool_result_contains": "config.py:1"})
EN = {"kesi": {"locale": "en"}}


def _config(project: Path) -> None:
    (project / "config.py").write_text("LIMIT = 42\n", encoding="utf-8")


async def test_a_search_streams_nested_under_its_call(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(ASK, *SEARCH, DONE))
    _config(project)
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=EN) as c:
        done = await c.run("kesi.ask", {"prompt": "What is LIMIT?"})
        assert done["status"] == "done" and done["text"] == "LIMIT is 42."
        events = c.stream(done["runId"])
        nested = [e for e in events if e.get("parentToolUseId") == "toolu_s"]
        assert nested and all(e["depth"] == 1 and e["agent"] == "search" for e in nested)
        tools = [e["tool"] for e in nested if e["kind"] == "toolStart"]
        assert tools == ["grep"]
        assert "".join(e["text"] for e in nested if e["kind"] == "text").startswith("Searching.")
        top = [e for e in events if "parentToolUseId" not in e]
        assert [e["tool"] for e in top if e["kind"] == "toolStart"] == ["search_agent"]
        # Billed per round, with a running sub-total, and in the run's total.
        bills = [e for e in nested if e["kind"] == "usage"]
        assert [b["purpose"] for b in bills] == ["search", "search"]
        assert [b["subtotal"]["requests"] for b in bills] == [1, 2]
        assert done["usage"]["requests"] == 4
        assert [t["name"] for t in api.requests[1].body["tools"]] == [
            "read_file",
            "list_files",
            "glob",
            "grep",
        ]


async def test_a_log_client_reads_the_search_indented_with_its_bill(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(ASK, *SEARCH, DONE))
    _config(project)
    async with kesi_client("helix", [project], env=api_env(api), init_options=EN) as c:
        done = await c.run("kesi.ask", {"prompt": "What is LIMIT?"})
        assert done["status"] == "done"
        lines = c.log_lines()
        start = lines.index(next(x for x in lines if x == f"  [tool] search_agent: {TASK}"))
        assert lines[start + 1] == "    Searching."
        assert lines[start + 2] == "      [tool] grep: LIMIT ="
        result = next(i for i, x in enumerate(lines) if x.startswith("    → LIMIT is 42"))
        assert lines[result + 1].startswith("    (search: 2 request(s), input ")


async def test_cancelling_during_a_search_cancels_it_and_the_next_request_is_valid(
    project: Path, scripted_api: StartServer
) -> None:
    stall = event_names(reply("Still looking")).index("text_delta") + 1
    api = scripted_api(
        script(
            ASK,
            reply(tool_use("grep", {"pattern": "LIMIT"})),
            stall_after(stall, "Still looking", seconds=30),
            reply("Here again.", expect={"last_user_text_contains": "again"}),
        )
    )
    _config(project)
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=EN) as c:
        started = await c.command("kesi.ask", {"prompt": "What is LIMIT?"})
        run_id = started["runId"]

        def searching() -> bool:
            return any(e.get("depth") == 1 and e["kind"] == "text" for e in c.stream(run_id))

        await until(searching)
        assert await c.command("kesi.cancel", {"runId": run_id}) == {"cancelled": True}
        done = await c.wait_finished(run_id)
        assert done["status"] == "cancelled"
        assert done["usage"]["requests"] == 3  # the stalled request counted as far as it got
        again = await c.run("kesi.ask", {"prompt": "Try again."})
        assert again["status"] == "done" and again["text"] == "Here again."
        sealed = api.requests[-1].body["messages"][2]["content"][0]
        assert sealed["tool_use_id"] == "toolu_s" and sealed["is_error"] is True
