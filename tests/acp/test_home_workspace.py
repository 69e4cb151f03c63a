"""An ACP session whose `cwd` is the home folder gets what the LSP server gives such a
workspace (issue 24 item 6; the seed's Days 15–16): the user is warned that the workspace
boundary means nothing there, and the model is told what the sandbox really closes (item 7).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

VOID = (
    "Command sandbox: the workspace boundary is meaningless: the workspace is your home "
    "directory or above it; open another folder"
)


@pytest.fixture(autouse=True)
def _bwrap() -> None:
    if shutil.which("bwrap") is None:
        if os.environ.get("KESI_CI") == "1":
            pytest.fail("KESI_CI=1 requires bubblewrap")
        pytest.skip("needs bubblewrap (apt install bubblewrap)")


def sandbox_line(system: object) -> str:
    """The model's sandbox line, from a request's `system` blocks."""
    blocks = system if isinstance(system, list) else [{"text": system}]
    lines = [line for b in blocks for line in str(b["text"]).splitlines()]
    (line,) = [line for line in lines if line.startswith("- Command sandbox:")]
    return line


@pytest.mark.slow
async def test_an_acp_session_in_the_home_folder_is_told_what_the_lsp_side_is_told(
    project: Path, scripted_api: StartServer
) -> None:
    home = {"HOME": str(project)}  # the folder opened is the user's home
    lsp_api = scripted_api(script(reply("Hello from LSP.")))
    async with kesi_client("vscode+kesi", [project], env={**api_env(lsp_api), **home}) as editor:
        run = await editor.command("kesi.ask", {"prompt": "hi"})
        done = await editor.wait_finished(run["runId"])
        assert done["status"] == "done"
        lsp_notice = editor.stream(run["runId"])[1]["text"]
        (lsp_warning,) = editor.shown(types.MessageType.Warning)
    lsp_line = sandbox_line(lsp_api.requests[0].body["system"])

    acp_api = scripted_api(script(reply("Hello from ACP.")))
    client = EditorClient()
    async with acp_agent(agent_env(acp_api, **home), client) as agent:
        session = await agent.start(project)
        assert (await agent.prompt(session, "hi")).stop_reason == "end_turn"
    acp_line = sandbox_line(acp_api.requests[0].body["system"])

    # the user: the seed's status line at the start of the run, and a warning beside it
    assert lsp_notice == VOID
    assert client.notices("sandbox") == [f"> {VOID}\n\n"]
    assert VOID in lsp_warning
    (acp_warning,) = client.notices("warning")
    assert VOID in acp_warning
    # the model: the same true line on both sides
    assert acp_line == lsp_line
    assert lsp_line.startswith(
        "- Command sandbox: on (bubblewrap), but the workspace is the home directory or above it"
    )
    assert "can be read but not written" in lsp_line
    assert "names above are still unreadable" not in lsp_line
