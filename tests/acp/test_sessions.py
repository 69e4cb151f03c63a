"""Sessions as an ACP client sees them: settings are the same as
the language server's, "Allow for this session" means this session, the modes are KeSi's
approval modes, limits end with the right stop reason, and an edit the user typed over is
refused rather than written (I4)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from acp import RequestError

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.acp.conftest import BUGGY, FIXED
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)


async def test_bad_settings_are_said_and_defaulted_good_ones_apply(
    project: Path, scripted_api: StartServer
) -> None:
    """The environment's KESI_* and initialize's _meta.kesi, validated as the LSP server does."""
    api = scripted_api(script(reply(tool_use("read_file", {"file_path": "calc.py"})), reply("x")))
    client = EditorClient(answer=lambda call, options: "reject")
    env = agent_env(api, KESI_MAX_TURNS="lots", KESI_MAX_TOKENS="2048")
    async with acp_agent(env, client, meta={"locale": "zh-TW", "approvals": "never"}) as agent:
        done = await agent.prompt(await agent.start(project), "看一下")
    assert done.stop_reason == "end_turn"
    problems = client.notices("settings")
    assert any("KESI_MAX_TURNS" in p and "lots" in p and "20" in p for p in problems)
    assert any("kesi.approvals" in p and '"ask"' in p for p in problems)
    assert all(p.startswith("> KeSi 設定") for p in problems)  # zh-TW from _meta
    assert api.requests[0].body["max_tokens"] == 2048
    assert client.cards()[0]["title"] == "讀取 calc.py"


async def test_zh_tw_options_are_the_seeds_words(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(script(reply(tool_use("run_command", {"command": "touch x"})), reply("ok")))
    client = EditorClient(answer=lambda call, options: "reject")
    async with acp_agent(agent_env(api, KESI_LOCALE="zh-TW"), client) as agent:
        await agent.prompt(await agent.start(project), "建個檔")
    (asked,) = client.asked
    assert [o["name"] for o in asked.options] == ["不要", "這次", "這個 session 都好"]


@pytest.mark.slow
async def test_allow_for_this_session_is_this_session_only(
    project: Path, scripted_api: StartServer
) -> None:
    command = tool_use("run_command", {"command": "touch made.txt"})
    api = scripted_api(
        script(reply(command), reply(command), reply("Twice."), reply(command), reply("Asked."))
    )
    client = EditorClient(answer=lambda call, options: "allow-session")
    async with acp_agent(agent_env(api), client) as agent:
        first = await agent.start(project)
        await agent.prompt(first, "twice")
        assert len(client.asked) == 1  # the second run of the same command was not asked
        other = await agent.start(project)
        await agent.prompt(other, "once more")
    assert len(client.asked) == 2 and client.asked[1].session_id == other


async def test_accept_edits_mode_lands_edits_without_asking(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(reply(tool_use("read_file", {"file_path": "calc.py"})), reply(EDIT), reply("Done."))
    )
    client = EditorClient()
    async with acp_agent(agent_env(api), client) as agent:
        session = await agent.start(project)
        await agent.conn.set_session_mode(session_id=session, mode_id="acceptEdits")
        await agent.prompt(session, "fix calc")
    assert (project / "calc.py").read_text() == FIXED and client.asked == []
    assert client.notices("approvals")  # said once: edits land without a review
    edit = next(c for c in client.cards() if c["kind"] == "edit")
    assert client.card_updates(edit["toolCallId"])[-1]["content"][0]["type"] == "diff"


async def test_the_mode_is_a_config_option_too(project: Path, scripted_api: StartServer) -> None:
    """CodeCompanion switches modes only through `configOptions` (issue 30): the same two
    modes are offered there, and switching there is what `session/set_mode` does."""
    api = scripted_api(
        script(reply(tool_use("read_file", {"file_path": "calc.py"})), reply(EDIT), reply("Done."))
    )
    client = EditorClient()
    async with acp_agent(agent_env(api), client) as agent:
        new = await agent.conn.new_session(cwd=str(project), mcp_servers=[])
        (option,) = [o.model_dump(by_alias=True, exclude_none=True) for o in new.config_options]
        assert option["id"] == "mode" and option["category"] == "mode"
        assert option["type"] == "select" and option["currentValue"] == "ask"
        assert [(c["value"], c["name"]) for c in option["options"]] == [
            ("ask", "Ask before edits"),
            ("acceptEdits", new.modes.available_modes[1].name),
        ]
        with pytest.raises(RequestError) as unknown:
            await agent.conn.set_config_option(
                config_id="model", session_id=new.session_id, value="x"
            )
        assert "unknown option model; KeSi's only option is mode" in str(unknown.value)
        with pytest.raises(RequestError) as bad:
            await agent.conn.set_config_option(
                config_id="mode", session_id=new.session_id, value="yolo"
            )
        assert "Unknown mode yolo" in str(bad.value)
        answer = await agent.conn.set_config_option(
            config_id="mode", session_id=new.session_id, value="acceptEdits"
        )
        assert answer.config_options[0].current_value == "acceptEdits"
        await agent.prompt(new.session_id, "fix calc")
    assert (project / "calc.py").read_text() == FIXED and client.asked == []


@pytest.mark.parametrize(
    ("steps", "settings", "stop", "hint"),
    [
        (
            (reply(tool_use("read_file", {"file_path": "calc.py"})),),
            {"KESI_MAX_TURNS": "1"},
            "max_turn_requests",
            "KESI_MAX_TURNS",
        ),
        (
            (reply("This reply is cut", stop_reason="max_tokens"),),
            {},
            "max_tokens",
            "KESI_MAX_TOKENS",
        ),
    ],
    ids=["max_turns", "max_tokens"],
)
async def test_limits_end_with_their_stop_reason_and_a_way_on(
    steps: tuple[Any, ...],
    settings: dict[str, str],
    stop: str,
    hint: str,
    project: Path,
    scripted_api: StartServer,
) -> None:
    api = scripted_api(script(*steps))
    client = EditorClient()
    async with acp_agent(agent_env(api, **settings), client) as agent:
        done = await agent.prompt(await agent.start(project), "go")
    assert done.stop_reason == stop
    assert client.notices("limit") and hint in client.notices("hint")[0]
    if stop == "max_turn_requests":  # the seed's /reset: an ACP client's way is a new thread
        assert "start over with a new thread." in client.notices("limit")[0]


async def test_typing_during_the_review_refuses_the_edit(
    project: Path, scripted_api: StartServer
) -> None:
    """ACP writes whole files: what the user typed while looking at the diff must survive."""
    calc = project / "calc.py"
    typed = BUGGY + "# the user typed this while reviewing\n"
    client = EditorClient()

    def type_then_allow(call: Any, options: Any) -> str:
        client.buffers[calc] = typed
        return "allow-once"

    client.answer = type_then_allow
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(EDIT),
            reply(
                "I will read it again.",
                expect={"last_tool_result_contains": "while the user was reviewing your edit"},
            ),
        )
    )
    async with acp_agent(agent_env(api), client) as agent:
        done = await agent.prompt(await agent.start(project), "fix calc")
    assert done.stop_reason == "end_turn"
    assert calc.read_text() == BUGGY and client.buffers[calc] == typed and client.writes == []


async def test_two_threads_in_one_folder_are_two_conversations(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply("One.", expect={"last_user_text_contains": "first"}),
            reply("Two.", expect={"last_user_text_contains": "second"}),
        )
    )
    async with acp_agent(agent_env(api)) as agent:
        await agent.prompt(await agent.start(project), "first")
        await agent.prompt(await agent.start(project), "second")
    assert len(api.requests[1].body["messages"]) == 1  # the second thread starts afresh


async def test_the_cwd_is_the_fence(project: Path, scripted_api: StartServer) -> None:
    secret = project.parent / "secret.txt"
    secret.write_text("the neighbour's secret\n", encoding="utf-8")
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "../secret.txt"})),
            reply(tool_use("read_file", {"file_path": str(secret)})),
            reply("I cannot read outside.", expect={"last_tool_result_is_error": True}),
        )
    )
    client = EditorClient()
    async with acp_agent(agent_env(api), client) as agent:
        await agent.prompt(await agent.start(project), "read the secret")
    assert str(secret) not in client.reads
    assert "neighbour" not in str([r.body for r in api.requests])
    assert [u["status"] for u in client.of_kind("tool_call_update")] == ["failed", "failed"]
