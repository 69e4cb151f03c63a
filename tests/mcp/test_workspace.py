"""A folder's `.mcp.json` at the core: what is asked, what is remembered, and bad input (a
malformed file, a damaged answers file) said clearly with nothing lost or assumed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kesi_lsp.core.approval import Choice, ServersRequest
from kesi_lsp.core.events import Event, Notice
from kesi_lsp.core.mcp.workspace import STORE, WorkspaceServers
from kesi_lsp.mcp_cli import forget


class Answering:
    """Answers the `.mcp.json` question with `choice`, keeping what was asked."""

    def __init__(self, choice: Choice) -> None:
        self.choice = choice
        self.asked: list[ServersRequest] = []

    async def approve_servers(self, request: ServersRequest) -> Choice:
        self.asked.append(request)
        return self.choice


def declare(root: Path, servers: object) -> None:
    (root / ".mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def setup(tmp_path: Path) -> tuple[Path, WorkspaceServers, list[Event]]:
    root = tmp_path / "project"
    root.mkdir()
    return root, WorkspaceServers({"XDG_STATE_HOME": str(tmp_path / "state")}), []


async def test_each_server_is_asked_about_once_and_only_a_changed_one_again(
    tmp_path: Path,
) -> None:
    root, servers, said = setup(tmp_path)
    declare(root, {"a": {"command": "prog-a"}, "b": {"type": "http", "url": "http://h/mcp"}})
    yes = Answering(Choice.ALLOW_ALWAYS)
    started = await servers.settle(root, set(), yes, "en", said.append)
    assert [c.name for c in started] == ["a", "b"]
    assert yes.asked[0].programs == ("a: prog-a", "b: http://h/mcp")
    again = WorkspaceServers({"XDG_STATE_HOME": str(tmp_path / "state")})  # a new start
    assert [c.name for c in await again.approved(root, set())] == ["a", "b"]
    b = {"url": "http://h/mcp", "type": "http"}  # the same definition, in another order
    declare(root, {"a": {"command": "prog-a", "network": True}, "b": b})
    no = Answering(Choice.DENY)
    started = await again.settle(root, set(), no, "en", said.append)
    assert no.asked[0].programs == ("a: prog-a (with network access)",)  # b is unchanged
    assert [c.name for c in started] == ["b"]
    assert said == [
        Notice(
            "info",
            "MCP servers of the folder's .mcp.json not started, as you answered: a (edit them, "
            "or run `kesi-lsp mcp reset` in the folder, to be asked again).",
        )
    ]


async def test_a_name_of_the_users_own_is_not_asked_about(tmp_path: Path) -> None:
    root, servers, said = setup(tmp_path)
    declare(root, {"time": {"command": "evil-time"}})
    asked = Answering(Choice.ALLOW_ALWAYS)
    assert await servers.settle(root, {"time"}, asked, "en", said.append) == ()
    assert asked.asked == [] and said == []


async def test_a_malformed_file_is_said_and_starts_nothing(tmp_path: Path) -> None:
    root, servers, said = setup(tmp_path)
    (root / ".mcp.json").write_text('{"mcpServers": {"a": ', encoding="utf-8")
    asked = Answering(Choice.ALLOW_ALWAYS)
    assert await servers.settle(root, set(), asked, "en", said.append) == ()
    assert asked.asked == []
    (notice,) = said
    assert isinstance(notice, Notice) and notice.text.startswith(f"{root / '.mcp.json'} cannot")
    assert "none of its MCP servers are started" in notice.text
    bad = {"bad name!": {"command": "x"}, "ok": {"type": "carrier-pigeon"}}
    declare(root, {**bad, "c": {"command": "c"}})
    said.clear()
    started = await servers.settle(root, set(), asked, "en", said.append)
    assert [c.name for c in started] == ["c"]
    texts = [n.text for n in said if isinstance(n, Notice)]
    assert any("the MCP server bad name! is left out" in t for t in texts), texts
    assert any('unknown transport "carrier-pigeon"' in t for t in texts), texts


async def test_damaged_answers_are_asked_again_never_taken_as_yes(tmp_path: Path) -> None:
    root, servers, said = setup(tmp_path)
    declare(root, {"a": {"command": "prog-a"}})
    await servers.settle(root, set(), Answering(Choice.ALLOW_ALWAYS), "en", said.append)
    store = tmp_path / "state" / "kesi" / STORE
    store.write_text("{not json", encoding="utf-8")
    asked = Answering(Choice.DENY)
    assert await servers.settle(root, set(), asked, "en", said.append) == ()
    assert len(asked.asked) == 1
    assert json.loads(store.read_text())["folders"][str(root.resolve())]["a"]["answer"] == "denied"


async def test_reset_forgets_a_folders_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, servers, said = setup(tmp_path)
    declare(root, {"a": {"command": "prog-a"}})
    await servers.settle(root, set(), Answering(Choice.DENY), "en", said.append)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    forgot = f"Forgot the answers about the MCP servers of {root}: its next run asks again."
    assert forget(root, "en") == forgot
    assert forget(root, "en").startswith("There were no answers")
    asked = Answering(Choice.ALLOW_ALWAYS)
    assert [c.name for c in await servers.settle(root, set(), asked, "en", said.append)] == ["a"]
