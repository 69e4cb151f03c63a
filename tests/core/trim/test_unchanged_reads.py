"""An unchanged re-read is sent as a short note, never as a second copy of the file; a changed
file, a cleared earlier read or trimming turned off all send the text again."""

from __future__ import annotations

from typing import Any

from kesi_lsp.core.events import ToolFinished
from kesi_lsp.core.trim import Cut, apply
from kesi_lsp.core.trim.unchanged import UNCHANGED_MARK
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import Agent, MakeAgent

BODY = "".join(f"LINE_{i} = {i}\n" for i in range(60))
READ = tool_use("read_file", {"file_path": "a.py"})
READ_DOT = tool_use("read_file", {"file_path": "./a.py"})


def _result(agent: Agent, index: int) -> dict[str, Any]:
    block: dict[str, Any] = agent.history[index]["content"][0]
    return block


async def test_a_second_read_of_the_same_text_is_a_note(make_agent: MakeAgent) -> None:
    write = tool_use("write_file", {"file_path": "a.py", "content": "A = 1\n"})
    agent = make_agent(
        script(reply(READ), reply(READ_DOT), reply(write), reply("Rewritten.")), locale="en"
    )
    (agent.ctx.session.root / "a.py").write_text(BODY, encoding="utf-8")
    finished = await agent.ask("Read a.py twice, then rewrite it.")
    assert finished.text == "Rewritten."
    assert _result(agent, 2)["content"] == BODY
    note = _result(agent, 4)["content"]
    assert note.startswith(UNCHANGED_MARK) and "unchanged" in note and "60 lines" in note
    # The output panel says what the model got (issue 30: it said "read 1 lines").
    summaries = [e.summary for e in agent.of(ToolFinished) if e.name == "read_file"]
    assert summaries == [
        "read 60 lines",
        "unchanged since the last read (60 lines): the model was told so, not sent it again",
    ]
    # The read happened, so its record is current: the overwrite is allowed.
    assert not _result(agent, 6)["is_error"]
    assert (agent.ctx.session.root / "a.py").read_text() == "A = 1\n"


async def test_a_file_that_changed_is_sent_again(make_agent: MakeAgent) -> None:
    agent = make_agent(script(reply(READ), reply(READ), reply("Two versions.")), locale="en")
    path = agent.ctx.session.root / "a.py"
    path.write_text(BODY, encoding="utf-8")

    def typing(event: object) -> None:  # the user edits between the two reads
        if type(event).__name__ == "ToolFinished":
            path.write_text(BODY + "NEW = 1\n", encoding="utf-8")

    agent.ctx.emit = typing
    await agent.ask("Read a.py twice.")
    assert _result(agent, 4)["content"].endswith("NEW = 1\n")


async def test_without_trimming_every_read_is_sent_whole(make_agent: MakeAgent) -> None:
    agent = make_agent(
        script(reply(READ), reply(READ), reply("Same.")), locale="en", context_trimming=False
    )
    (agent.ctx.session.root / "a.py").write_text(BODY, encoding="utf-8")
    await agent.ask("Read a.py twice.")
    assert _result(agent, 4)["content"] == BODY


async def test_clearing_the_first_read_forgets_the_file_despite_the_note(
    make_agent: MakeAgent,
) -> None:
    """The note is not a read in view: when trimming clears the text it points at, write_file
    must ask for a fresh read, as for any cleared read."""
    agent = make_agent(script(reply(READ), reply(READ), reply("Same.")), locale="en")
    (agent.ctx.session.root / "a.py").write_text(BODY * 4, encoding="utf-8")
    await agent.ask("Read a.py twice.")
    session = agent.ctx.session
    assert session.reads
    first = _result(agent, 2)["tool_use_id"]
    report = apply(session.history, session.reads, session.root, [Cut(first, "budget")], "en")
    assert report.forgotten and session.reads == {}
