"""Resume (kesi_lsp.core.persistence): a folder's conversation saved after every round in the
user's state directory, brought back on the next start, sealed if a run was cut short, and a
bad file set aside with a notice instead of a crash."""

from __future__ import annotations

import json
from pathlib import Path

from kesi_lsp.core.history import check_history
from kesi_lsp.core.persistence import ConversationStore, state_directory
from kesi_lsp.core.session import Grants, Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import Agent, MakeAgent

EN = AgentSettings(locale="en")


def _store(tmp_path: Path) -> ConversationStore:
    return ConversationStore(tmp_path / "state" / "kesi" / "conversations")


def _attach(agent: Agent, store: ConversationStore) -> list[str]:
    return store.open(agent.ctx.session)


def _reopen(agent: Agent, store: ConversationStore) -> tuple[Session, list[str]]:
    fresh = Session(root=agent.ctx.session.root, settings=EN)
    return fresh, store.open(fresh)


async def test_a_conversation_comes_back_after_a_restart(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    steps = [reply(tool_use("read_file", {"file_path": "a.py"})), reply("a.py sets A.")]
    agent = make_agent(script(*steps), locale="en")
    (agent.ctx.session.root / "a.py").write_text("A = 1\n", encoding="utf-8")
    store = _store(tmp_path)
    assert _attach(agent, store) == []  # nothing saved yet: nothing to say
    agent.ctx.session.grants.commands.add("pytest -q")
    await agent.ask("What does a.py set?")
    assert store.flush()

    saved = store.file_for(agent.ctx.session.root)
    assert saved.is_relative_to(tmp_path / "state") and saved.stat().st_mode & 0o077 == 0
    assert "pytest -q" not in saved.read_text()  # grants are never saved
    fresh, notes = _reopen(agent, store)
    assert fresh.history == agent.history
    assert fresh.reads == agent.ctx.session.reads and fresh.reads
    assert fresh.usage == agent.ctx.session.usage and fresh.usage.requests == 2
    assert fresh.grants == Grants()
    assert len(notes) == 1 and notes[0].startswith("Continuing this folder's conversation")
    assert "4 messages" in notes[0]


async def test_a_run_cut_short_is_sealed_as_ctrl_c_seals_it(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    """The process ends while a tool runs: the saved history ends with its tool_use."""
    agent = make_agent(script(), locale="en")
    store = _store(tmp_path)
    session = agent.ctx.session
    _attach(agent, store)
    session.history[:] = [
        {"role": "user", "content": "Run the tests."},
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Running them."},
                {"type": "tool_use", "id": "t1", "name": "run_command", "input": {"command": "x"}},
            ],
        },
    ]
    session.checkpoint(running=True)
    assert store.flush()

    fresh, notes = _reopen(agent, store)
    assert check_history(fresh.history) == []
    sealed = fresh.history[2]["content"][0]
    assert sealed["tool_use_id"] == "t1" and "unknown" in sealed["content"]
    assert fresh.history[-1]["role"] == "assistant"
    assert "interrupted" in str(fresh.history[-1]["content"])
    assert any("cut short" in n for n in notes)
    assert store.flush()
    assert json.loads(store.file_for(session.root).read_text())["running"] is False


async def test_a_cut_while_streaming_is_closed_too(make_agent: MakeAgent, tmp_path: Path) -> None:
    agent = make_agent(script(), locale="en")
    store = _store(tmp_path)
    _attach(agent, store)
    agent.ctx.session.history[:] = [{"role": "user", "content": "Explain a.py."}]
    agent.ctx.session.checkpoint(running=True)
    assert store.flush()
    fresh, _ = _reopen(agent, store)
    assert [m["role"] for m in fresh.history] == ["user", "assistant"]
    assert check_history(fresh.history) == []


async def test_a_corrupt_file_is_kept_aside_and_the_session_starts_fresh(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    agent = make_agent(script(reply("Fresh start.")), locale="en")
    store = _store(tmp_path)
    path = store.file_for(agent.ctx.session.root)
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"version": 1, "history": [')
    notes = _attach(agent, store)
    assert len(notes) == 1 and "could not be used (not JSON" in notes[0]
    kept = list(path.parent.glob("*.corrupt-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == b'{"version": 1, "history": ['
    assert kept[0].name in notes[0]
    assert agent.history == []
    finished = await agent.ask("Hello")
    assert finished.text == "Fresh start."
    assert store.flush() and json.loads(path.read_text())["history"][0]["content"] == "Hello"


async def test_a_saved_history_that_would_break_the_api_is_not_trusted(
    make_agent: MakeAgent, tmp_path: Path
) -> None:
    agent = make_agent(script(), locale="en")
    store = _store(tmp_path)
    root = agent.ctx.session.root
    path = store.file_for(root)
    path.parent.mkdir(parents=True)
    bad = {"version": 1, "root": str(root), "savedAt": "2026-12-01T10:00:00+00:00"}
    bad |= {"running": False, "reads": {}, "usage": {}}
    bad["history"] = [{"role": "assistant", "content": "I speak first."}]
    path.write_text(json.dumps(bad), encoding="utf-8")
    notes = _attach(agent, store)
    assert "could not be used (message 0 is 'assistant'" in notes[0]
    assert agent.history == []


async def test_an_unreadable_file_is_set_aside(make_agent: MakeAgent, tmp_path: Path) -> None:
    agent = make_agent(script(), locale="en")
    store = _store(tmp_path)
    path = store.file_for(agent.ctx.session.root)
    path.mkdir(parents=True)  # where the file should be: reading it fails
    notes = _attach(agent, store)
    assert "could not be used" in notes[0]
    assert not path.exists() and list(path.parent.glob("*.corrupt-*"))


async def test_reset_deletes_the_saved_conversation(make_agent: MakeAgent, tmp_path: Path) -> None:
    agent = make_agent(script(reply("Hi.")), locale="en")
    store = _store(tmp_path)
    _attach(agent, store)
    await agent.ask("Hello")
    assert store.flush() and store.file_for(agent.ctx.session.root).exists()
    agent.ctx.session.reset()
    store.forget(agent.ctx.session.root)
    assert store.flush() and not store.file_for(agent.ctx.session.root).exists()


async def test_a_state_directory_inside_the_workspace_is_never_used(
    make_agent: MakeAgent,
) -> None:
    agent = make_agent(script(reply("Hi.")), locale="en")
    root = agent.ctx.session.root
    store = ConversationStore(root / ".local" / "state" / "kesi" / "conversations")
    notes = _attach(agent, store)
    assert "will not be saved" in notes[0]
    await agent.ask("Hello")
    assert store.flush() and not (root / ".local").exists()


def test_the_state_directory_follows_xdg() -> None:
    assert state_directory({"XDG_STATE_HOME": "/x/state", "HOME": "/home/u"}) == Path(
        "/x/state/kesi/conversations"
    )
    assert state_directory({"XDG_STATE_HOME": "relative", "HOME": "/home/u"}) == Path(
        "/home/u/.local/state/kesi/conversations"
    )
    assert state_directory({}) is None
