"""Emacs' own "no", over the real wire (issue 13, "Emacs' own no"; issue 17 item 5).

Plain eglot 1.9 asks once more before it applies a server's edit ("[eglot] Server wants to
edit: … Proceed?", `eglot-confirm-server-initiated-edits`). Answering `n` makes eglot answer
`workspace/applyEdit` with an error ("User cancelled server edit"; 1.12 spells it
"canceled"). That is the user refusing the edit, not the editor failing: the model must be
told the user refused and not to send the same change again, and nothing may change.

This drives the real server, the real model loop and the real `anthropic` SDK against the
scripted Messages API, with the client that imitates Emacs (tests/lsp/clients.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import ALLOW_ONCE, EditorRefusalError, kesi_client
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

BUGGY = "def add(a, b):\n    return a - b\n"
READ = tool_use("read_file", {"file_path": "calc.py"})
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)
REFUSED = "the user refused to modify this file"


@pytest.mark.parametrize("wording", ["User cancelled server edit", "User canceled server edit"])
async def test_eglots_no_is_the_users_refusal(
    wording: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    project = tmp_path / "calc"
    project.mkdir()
    calc = project / "calc.py"
    calc.write_text(BUGGY, encoding="utf-8")
    api = scripted_api(
        script(
            reply("Reading.", READ),
            reply("Fixing the subtraction.", EDIT),
            reply(
                "Understood: I leave calc.py as it is.",
                expect={"last_tool_result_contains": REFUSED},
            ),
        )
    )
    env = {"ANTHROPIC_API_KEY": "sk-ant-test-emacs", "ANTHROPIC_BASE_URL": api.base_url}
    async with kesi_client("emacs", [project], env=env) as client:
        buffer = client.open(calc)

        def eglot_asks_and_the_user_says_no(params: types.ApplyWorkspaceEditParams) -> None:
            raise EditorRefusalError(message=wording)

        client.answer_prompt = lambda params: ALLOW_ONCE  # KeSi's own diff prompt: yes
        client.before_apply = eglot_asks_and_the_user_says_no  # then eglot's y/n: no
        done = await client.run("kesi.fixThis", {"uri": buffer.uri, "range": _line(1)})

    assert done["status"] == "done"
    told = _tool_result(api.requests[2].body)
    assert REFUSED in told, told
    assert told == f"Error: {REFUSED}.", told  # the seed's, whole
    assert "failed to apply" not in told, "the editor did not fail: the user said no"
    assert len(client.applied) == 1, "asked once, never resent"
    assert buffer.text == BUGGY and not buffer.dirty
    assert calc.read_text(encoding="utf-8") == BUGGY


def _line(number: int) -> dict[str, object]:
    return {"start": {"line": number, "character": 0}, "end": {"line": number + 1, "character": 0}}


def _tool_result(body: dict[str, object]) -> str:
    messages = body["messages"]
    assert isinstance(messages, list)
    parts = []
    for block in messages[-1]["content"]:
        if block.get("type") == "tool_result":
            content = block["content"]
            parts.append(
                content if isinstance(content, str) else " ".join(c["text"] for c in content)
            )
    return "\n".join(parts)
