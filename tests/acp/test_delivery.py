"""After an accepted edit, what the editor and the disk hold is what was meant (I1), whatever
the client does with `fs/write_text_file`: saves it, keeps it unsaved, reformats it, fails."""

from __future__ import annotations

import json
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


def edit_script(expect: dict[str, Any]) -> Any:
    return script(
        reply(tool_use("read_file", {"file_path": "calc.py"})),
        reply(EDIT),
        reply("Done.", expect=expect),
    )


def allow(call: Any, options: Any) -> str:
    return "allow-once"


async def test_an_edit_the_editor_keeps_unsaved_is_saved_for_it(
    project: Path, scripted_api: StartServer
) -> None:
    """Commands must see the change: the same bytes go to disk (the disk had not moved)."""
    api = scripted_api(edit_script({"last_tool_result_is_error": False}))
    client = EditorClient(answer=allow, save_on_write=False)
    async with acp_agent(agent_env(api), client) as agent:
        await agent.prompt(await agent.start(project), "fix calc")
    calc = project / "calc.py"
    assert client.buffers[calc] == FIXED and calc.read_text() == FIXED


async def test_a_reformat_on_save_lands_and_the_model_is_told(
    project: Path, scripted_api: StartServer
) -> None:
    calc = project / "calc.py"
    formatted = FIXED.replace("def add(a, b):", "def add(a, b):  # formatted")
    client = EditorClient(answer=allow)
    original = client.write_text_file

    async def formatting(session_id: str, path: str, content: str, **kw: Any) -> None:
        await original(
            session_id, path, content.replace("def add(a, b):", formatted.split("\n")[0])
        )

    client.write_text_file = formatting  # type: ignore[method-assign]
    api = scripted_api(edit_script({"last_tool_result_contains": "reformatted"}))
    async with acp_agent(agent_env(api), client) as agent:
        await agent.prompt(await agent.start(project), "fix calc")
    assert calc.read_text() == formatted
    edit = next(c for c in client.cards() if c["kind"] == "edit")
    landed = client.card_updates(edit["toolCallId"])[-1]["content"][0]
    assert landed["newText"] == formatted  # the card shows what landed


async def test_an_editor_that_cannot_write_changes_nothing(
    project: Path, scripted_api: StartServer
) -> None:
    client = EditorClient(answer=allow)

    async def refusing(session_id: str, path: str, content: str, **kw: Any) -> None:
        raise RequestError(-32603, "the buffer is read-only")

    client.write_text_file = refusing  # type: ignore[method-assign]
    api = scripted_api(edit_script({"last_tool_result_contains": "the buffer is read-only"}))
    async with acp_agent(agent_env(api), client) as agent:
        await agent.prompt(await agent.start(project), "fix calc")
    assert (project / "calc.py").read_text() == BUGGY


async def test_a_client_that_refuses_the_write_is_quoted(
    project: Path, scripted_api: StartServer
) -> None:
    """A client's handler that throws is answered as "Internal error" with its words in
    `data.details` (both SDKs): the model and the card get those words (issue 30)."""
    client = EditorClient(answer=allow)

    async def refusing(session_id: str, path: str, content: str, **kw: Any) -> None:
        raise PermissionError("calc.py is open read-only in this editor")

    client.write_text_file = refusing  # type: ignore[method-assign]
    said = "the editor could not write calc.py (calc.py is open read-only in this editor)"
    api = scripted_api(edit_script({"last_tool_result_contains": said}))
    async with acp_agent(agent_env(api), client) as agent:
        await agent.prompt(await agent.start(project), "fix calc")
    assert (project / "calc.py").read_text() == BUGGY
    assert "Internal error" not in json.dumps(client.updates)


async def test_a_failed_permission_request_is_a_deny(
    project: Path, scripted_api: StartServer
) -> None:
    def broken(call: Any, options: Any) -> str:
        raise RequestError(-32603, "the prompt could not be shown")

    client = EditorClient(answer=broken)
    api = scripted_api(
        edit_script({"last_tool_result_contains": "the user refused to modify this file"})
    )
    async with acp_agent(agent_env(api), client) as agent:
        await agent.prompt(await agent.start(project), "fix calc")
    assert (project / "calc.py").read_text() == BUGGY and client.writes == []
