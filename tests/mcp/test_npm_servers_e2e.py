"""Real npm MCP servers nobody here wrote, over the real wire: `@modelcontextprotocol/server-
everything` and `@modelcontextprotocol/server-filesystem` start inside KeSi's bubblewrap
sandbox, a scripted model calls their tools through the language server, the editor is asked
(server, tool, arguments) and says yes for the session, the results reach the model, and the
filesystem server, although told it may read the user's home, cannot read a secret planted
there: the sandbox shows it an empty home."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing.editor import ALLOW_SESSION
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.mcp_folder import listed_ready
from tests.mcp.npm_servers import npm_servers
from tests.plugins.scripted_api import StartServer

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("bwrap") is None and not os.environ.get("KESI_CI"), reason="needs bwrap"
    ),
]

SECRET = "KESI-PLANTED-SECRET-5f1c"


async def test_npm_servers_run_in_the_sandbox_through_the_gate(
    tmp_path: Path, scripted_api: StartServer
) -> None:
    node, everything, filesystem = npm_servers()
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("hello from the project\n", encoding="utf-8")
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    secret = home / ".ssh" / "id_ed25519"
    secret.write_text(SECRET, encoding="utf-8")
    api = scripted_api(
        script(
            reply(tool_use("mcp__everything__echo", {"message": "hi from KeSi"})),
            reply(
                tool_use("mcp__files__read_text_file", {"path": str(project / "notes.txt")}),
                expect={"last_tool_result_contains": "hi from KeSi"},
            ),
            reply(
                tool_use("mcp__files__read_text_file", {"path": str(secret)}),
                expect={"last_tool_result_contains": "hello from the project"},
            ),
            reply("Done.", expect={"last_tool_result_is_error": True}),
        )
    )
    servers = {
        "everything": {"command": node, "args": [str(everything), "stdio"]},
        "files": {"command": node, "args": [str(filesystem), str(project), str(home)]},
    }
    env = {**api_env(api), "HOME": str(home)}
    init = {"kesi": {"mcpServers": servers}}
    async with kesi_client("vscode", [project], env=env, init_options=init) as client:
        client.answer_prompt = lambda params: ALLOW_SESSION
        listed = await listed_ready(client, 2)
        assert [s["state"] for s in listed["servers"]] == ["ready", "ready"], listed["lines"]
        tools = {s["name"]: s["tools"] for s in listed["servers"]}
        assert "echo" in tools["everything"] and "read_text_file" in tools["files"]
        done = await client.run("kesi.ask", {"prompt": "Echo, then read my notes."}, 180)
        assert done["status"] == "done", done
        asked = [p.message for p in client.prompts]
    assert len(asked) == 2, asked  # each tool once; the session grant answered the rest
    assert (
        'MCP server everything wants to run its tool echo with: {"message": "hi from KeSi"}'
        in (asked[0])
    )
    assert "MCP server files wants to run its tool read_text_file" in asked[1]
    assert secret.read_text(encoding="utf-8") == SECRET  # nothing damaged
    seen = json.dumps([r.body["messages"] for r in api.requests])
    assert SECRET not in seen  # the planted secret never reached the model
