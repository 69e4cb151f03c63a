"""Secrets never leave (issue 29), through the loop with the real SDK and the scripted API: a
command prints an Anthropic-format key and a GitHub token; the model request, the history that
is saved, the events the front ends stream, and a resumed old conversation hold only markers."""

from __future__ import annotations

import json
from pathlib import Path

from kesi_lsp.core.persistence import ConversationStore
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import MakeAgent

ANTHROPIC = "sk-ant-api03-" + "Zx9Yw8Vu7Ts6" * 8 + "AA"
GITHUB = "ghp_" + "aB3dE5fG7hJ9" * 3


async def test_a_printed_key_and_token_reach_the_model_and_the_stream_as_markers(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    steps = script(
        reply(tool_use("run_command", {"command": "cat leak.txt"})),
        reply("Both are set.", expect={"last_tool_result_is_error": False}),
    )
    agent = make_agent(steps, locale="en")
    root = agent.ctx.session.root
    (root / "leak.txt").write_text(f"KEY={ANTHROPIC}\nTOKEN={GITHUB}\n", encoding="utf-8")
    store = ConversationStore(tmp_path / "state" / "conversations")
    store.open(agent.ctx.session)
    finished = await agent.ask("Are the keys set?")
    assert finished.status == "done"
    assert store.flush()
    saved = store.file_for(root).read_text(encoding="utf-8")
    requests = json.dumps([r.body for r in agent.server.requests])
    events = repr(agent.events)
    for where in (requests, saved, events):
        assert ANTHROPIC not in where and GITHUB not in where
    for where in (requests, saved):
        assert "[redacted: Anthropic API key]" in where and "[redacted: GitHub token]" in where


async def test_a_conversation_saved_with_a_secret_is_redacted_when_it_comes_back(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    agent = make_agent(script(reply("Noted.")), locale="en")
    store = ConversationStore(tmp_path / "state" / "conversations")
    store.open(agent.ctx.session)
    agent.history.extend(
        [
            {"role": "user", "content": "hello"},
            {"role": "assistant", "content": [{"type": "text", "text": f"token {GITHUB}"}]},
        ]
    )
    store.checkpoint(agent.ctx.session, False)  # saved as an older KeSi saved it
    assert store.flush()
    assert GITHUB in store.file_for(agent.ctx.session.root).read_text(encoding="utf-8")
    fresh = Session(root=agent.ctx.session.root, settings=AgentSettings(locale="en"))
    store.open(fresh)
    assert fresh.history[1]["content"][0]["text"] == "token [redacted: GitHub token]"
    assert store.flush()
    assert GITHUB not in store.file_for(fresh.root).read_text(encoding="utf-8")


async def test_a_token_the_model_writes_is_kept_as_a_marker_but_the_tool_gets_it_whole(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    """A fixture token the model writes into a file lands whole (the tool runs the reply as it
    came), yet the history, the next request and the saved conversation hold the marker."""
    fixture = f"TOKEN = {GITHUB!r}\n"
    steps = script(
        reply(
            f"Writing {GITHUB} into the fixture.",
            tool_use("write_file", {"file_path": "fixture.py", "content": fixture}),
        ),
        reply("Written.", expect={"last_tool_result_is_error": False}),
    )
    agent = make_agent(steps, locale="en")
    root = agent.ctx.session.root
    store = ConversationStore(tmp_path / "state" / "conversations")
    store.open(agent.ctx.session)
    finished = await agent.ask("Add a fixture token.")
    assert finished.status == "done"
    assert (root / "fixture.py").read_text(encoding="utf-8") == fixture
    assert store.flush()
    saved = store.file_for(root).read_text(encoding="utf-8")
    second = json.dumps(agent.server.requests[1].body)
    for where in (second, saved, json.dumps(agent.history)):
        assert GITHUB not in where
        assert "Writing [redacted: GitHub token] into the fixture." in where
        assert "TOKEN = '[redacted: GitHub token]'" in where
