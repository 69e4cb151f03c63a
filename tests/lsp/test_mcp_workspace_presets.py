"""A folder's `.mcp.json` is approved (or not) in every LSP client preset the suite has: the
question names the program it would start, a yes starts the server and its tool's result reaches
the model, a no starts nothing and offers nothing, and a client that cannot ask (Helix has no
prompts, vim-lsp answers every prompt with null) starts nothing: nobody to ask is a no."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing.editor import ALLOW_SESSION, DENY
from kesi_lsp.testing.quirks import announces_kesi
from tests.lsp.clients import PRESETS, Editor, kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.mcp_folder import QUESTION, START, listed_ready
from tests.mcp.servers import FAULT_SERVER, fault
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

CALL = tool_use("mcp__fault__echo", {"text": "from the folder's server"})


def can_ask(preset: str) -> bool:
    return PRESETS[preset].prompts and not PRESETS[preset].null_prompt_answers


CASES = [
    pytest.param(preset, answer, id=f"{preset}-{'yes' if answer == START else 'no'}")
    for preset in PRESETS
    for answer in ((START, DENY) if can_ask(preset) else (DENY,))
]


def answers(folder: str) -> Any:
    return lambda params: folder if QUESTION in params.message else ALLOW_SESSION


async def ask(client: Editor, preset: str) -> None:
    """Run `kesi.ask` to its end, as the client learns of it: `kesi/runFinished` for those
    announcing `experimental.kesi`, the end-of-run message for the generic ones."""
    if announces_kesi(PRESETS[preset].capabilities()):
        done = await client.run("kesi.ask", {"prompt": "echo it"})
        assert done["status"] == "done", done
        return
    await client.command("kesi.ask", {"prompt": "echo it"})
    end = await client.timeline.wait_shown("KeSi: ", 60)
    assert end.startswith("KeSi: done"), end


@pytest.mark.parametrize(("preset", "answer"), CASES)
async def test_the_folder_servers_start_only_on_a_yes_in_every_preset(
    preset: str, answer: str, project: Path, scripted_api: StartServer
) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"fault": fault("ok")}}))
    started = answer == START and can_ask(preset)
    said = "echo: from the folder's server" if started else "mcp__fault__echo"
    api = scripted_api(
        script(reply(CALL), reply("Done.", expect={"last_tool_result_contains": said}))
    )
    init = {"kesi": {"approvals": "acceptEdits"}} if not can_ask(preset) else None
    async with kesi_client(preset, [project], env=api_env(api), init_options=init) as client:
        client.answer_prompt = answers(answer)
        await ask(client, preset)
        if can_ask(preset):
            asked = client.prompts[0]
            assert QUESTION in asked.message, asked.message
            assert f"fault: {sys.executable} {FAULT_SERVER} ok" in asked.message, asked.message
            assert [a.title for a in asked.actions or []] == [DENY, START]
        if started:
            listed = await listed_ready(client)
            assert listed["servers"][0]["source"] == "workspace"
            assert listed["servers"][0]["state"] == "ready", listed["lines"]
        else:
            listed = await client.command("kesi.mcp", {})
            assert listed["servers"] == [], listed
    offered = [t["name"] for r in api.requests for t in r.body["tools"]]
    assert ("mcp__fault__echo" in offered) == started
