"""KeSi in an ACP client, end to end: `kesi-lsp acp` as a subprocess, the `acp` package's own
client side, the real `anthropic` SDK over HTTP to the scripted Messages API.

The headline scenario is the user's: a test fails, the user asks KeSi to fix it; KeSi reads
the file through the editor, shows the edit as a diff on its card and asks, writes it through
`fs/write_text_file`, asks to run pytest, the user allows it, the test passes, the turn ends
with its bill. And the refusals: a rejected edit and a denied command change nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.acp.conftest import BUGGY, FIXED
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.acp.scripts import DONE, FIX_SCRIPT, PYTEST
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e


def resolved(path: Path) -> Path:
    """`path` as the agent names it (symlinks resolved)."""
    return path.resolve()


def allow(tool_call: Any, options: Any) -> str:
    return "allow-once"


def ids(cards: list[dict[str, Any]]) -> dict[str, str]:
    return {card["title"]: card["toolCallId"] for card in cards}


@pytest.mark.slow
async def test_fix_a_failing_test_through_the_editor(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(FIX_SCRIPT)
    client = EditorClient(answer=allow)
    async with acp_agent(agent_env(api), client) as agent:
        session = await agent.start(project)
        done = await agent.prompt(session, "test_add fails: assert -1 == 5. Fix it.")
        messages = agent.messages()
    assert done.stop_reason == "end_turn"
    assert (project / "calc.py").read_text() == FIXED
    # read and written through the editor, never behind its back
    calc = str(project / "calc.py")
    assert calc in client.reads and client.writes == [(calc, FIXED)]
    # the cards: kinds, titles, where they work
    cards = client.cards()
    assert [(c["kind"], c["title"]) for c in cards] == [
        ("read", "Read calc.py"),
        ("edit", "Edit calc.py"),
        ("execute", f"Run {PYTEST}"),
    ]
    assert cards[0]["locations"] == [{"path": calc}] and cards[2]["locations"] == []
    card = ids(cards)
    edit_updates = client.card_updates(card["Edit calc.py"])
    assert edit_updates[-1]["status"] == "completed"
    diff = edit_updates[-1]["content"][0]
    assert diff == {"type": "diff", "path": calc, "oldText": BUGGY, "newText": FIXED}
    assert client.card_updates(card[f"Run {PYTEST}"])[-1]["status"] == "completed"
    # two questions, on the cards they are about, the safe answer first
    edit_q, command_q = client.asked
    assert edit_q.tool_call["toolCallId"] == card["Edit calc.py"]
    # what is asked and why, in the request itself: clients show only that (issue 30)
    assert edit_q.tool_call["title"] == "Edit calc.py"
    why, shown_diff = edit_q.tool_call["content"]
    assert why["content"]["text"].startswith("Why it asks: KeSi changes a file only once")
    assert shown_diff == diff
    assert [(o["optionId"], o["name"], o["kind"]) for o in edit_q.options] == [
        ("reject", "Deny", "reject_once"),
        ("allow-once", "Allow once", "allow_once"),
        ("allow-session", "Allow for this session", "allow_always"),
    ]
    assert command_q.tool_call["toolCallId"] == card[f"Run {PYTEST}"]
    assert command_q.tool_call["title"] == f"Run {PYTEST}"
    assert command_q.tool_call["content"][0]["content"]["text"].startswith("Why it asks: ")
    # the model's words, streamed in pieces; notices apart and marked
    words = ["Let me read calc.py.", "It subtracts. ", "Now the test.", DONE]
    assert client.model_text() == "".join(words)
    assert len(client.of_kind("agent_message_chunk")) > 6
    # Day 15's start-up lines first: the working directory, then the sandbox
    assert client.notices()[0] == f"> Working directory: {resolved(project)}\n\n"
    assert client.notices()[1] == "> Command sandbox: on (/usr/bin/bwrap)\n\n"
    bill = client.notices("bill")[-1]
    assert "4 request(s)" in bill and "session total $" in bill
    # the meter after each round: context used against the window, the session's cost
    meters = client.of_kind("usage_update")
    assert len(meters) == 4 and all(m["size"] == 200_000 and m["used"] > 0 for m in meters)
    assert meters[-1]["cost"]["currency"] == "USD" and meters[-1]["cost"]["amount"] > 0
    assert meters[-1]["_meta"]["kesi"]["bill"] in bill
    # nothing but JSON-RPC on stdout, and never the client's terminal
    assert not [m for m in messages if str(m.get("method", "")).startswith("terminal/")]
    (task,) = api.requests[0].body["messages"][0]["content"]
    assert task["text"] == "test_add fails: assert -1 == 5. Fix it."


async def test_without_fs_the_disk_is_read_and_written_atomically(
    project: Path, scripted_api: StartServer
) -> None:
    """A client that offers no fs methods: KeSi reads the disk and writes with its own atomic
    write, still after the review."""
    api = scripted_api((*FIX_SCRIPT.steps[:2], reply("Edited.")))
    client = EditorClient(fs=False, answer=allow)
    async with acp_agent(agent_env(api), client) as agent:
        session = await agent.start(project)
        done = await agent.prompt(session, "test_add fails: fix it")
    assert done.stop_reason == "end_turn"
    assert (project / "calc.py").read_text() == FIXED
    assert client.reads == [] and client.writes == []
    assert len(client.asked) == 1


async def test_the_editors_unsaved_text_is_what_kesi_reads_and_edits(
    project: Path, scripted_api: StartServer
) -> None:
    calc = project / "calc.py"
    typed = "# typed, not saved\n" + BUGGY
    api = scripted_api(
        script(
            reply(
                tool_use("read_file", {"file_path": "calc.py"}),
            ),
            reply(
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                ),
                expect={"last_tool_result_contains": "typed, not saved"},
            ),
            reply("Done.", expect={"last_tool_result_is_error": False}),
        )
    )
    client = EditorClient(answer=allow)
    client.buffers[calc] = typed
    async with acp_agent(agent_env(api), client) as agent:
        done = await agent.prompt(await agent.start(project), "fix calc")
    assert done.stop_reason == "end_turn"
    assert calc.read_text() == typed.replace("a - b", "a + b")
    # the system prompt named the unsaved file
    system = api.requests[1].body["system"]
    assert "calc.py" in str(system)


async def test_a_rejected_edit_changes_nothing(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                )
            ),
            reply(
                "You rejected it.",
                expect={"last_tool_result_contains": "the user refused to modify this file"},
            ),
        )
    )
    client = EditorClient(answer=lambda call, options: "reject")
    async with acp_agent(agent_env(api), client) as agent:
        done = await agent.prompt(await agent.start(project), "fix calc")
    assert done.stop_reason == "end_turn"
    assert (project / "calc.py").read_text() == BUGGY and client.writes == []
    edit = ids(client.cards())["Edit calc.py"]
    final = client.card_updates(edit)[-1]
    assert final["status"] == "failed"
    assert all(c["type"] != "diff" for c in final["content"])  # no diff for what did not land


@pytest.mark.parametrize("outcome", ["reject", None, "no-such-option"])
async def test_a_denied_command_runs_nothing(
    outcome: str | None, project: Path, scripted_api: StartServer
) -> None:
    """Deny, a cancelled request, an answer KeSi did not offer: all are no."""
    marker = project / "ran.txt"
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": f"touch {marker.name} && echo ran"})),
            reply(
                "Not run.",
                expect={"last_tool_result_contains": "the user refused to run this command"},
            ),
        )
    )
    client = EditorClient(answer=lambda call, options: outcome)
    async with acp_agent(agent_env(api), client) as agent:
        done = await agent.prompt(await agent.start(project), "make a file")
    assert done.stop_reason == "end_turn"
    assert not marker.exists()
    (card,) = client.cards()
    assert card["kind"] == "execute"
    assert client.card_updates(card["toolCallId"])[-1]["status"] == "failed"
