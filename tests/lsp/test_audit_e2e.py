"""The audit log over the real wire (issue 29): a real `kesi-lsp` process over stdio, the real
`anthropic` SDK against the scripted Messages API; after a run that calls an MCP tool (a small
server written here with the `mcp` SDK), starts and stops a background task, and has a
sandboxed command refused hosts (denied by the user, allowed by the user, denied by a pattern),
`kesi.audit` shows one line per decision in the server's words, and the file holds the records.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.network.servers import site
from tests.core.sandbox.conftest import bwrap
from tests.lsp.clients import ALLOW_ONCE, kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.mcp_folder import listed_ready
from tests.lsp.servers import Subprocess
from tests.plugins.scripted_api import StartServer

__all__ = ["bwrap"]
pytestmark = [pytest.mark.e2e, pytest.mark.subprocess]

SHOUT_SERVER = """
from mcp.server.mcpserver import MCPServer

server = MCPServer("notes")


@server.tool()
def shout(text: str) -> str:
    \"\"\"Say the text back, loudly.\"\"\"
    return text.upper() + "!"


server.run()
"""


def body(line: str) -> str:
    """An audit line without its time stamp (`2026-12-02 04:05:06 `)."""
    return line.split(" ", 2)[2]


async def audit(client: Any) -> list[str]:
    listed = await client.command("kesi.audit", {})
    assert listed["enabled"] is True and listed["path"], listed
    assert listed["lines"][0].startswith("KeSi audit log of "), listed["lines"]
    return [body(line) for line in listed["lines"][1:]]


async def test_an_mcp_call_and_a_background_task_are_in_the_audit_log(
    project: Path, tmp_path: Path, scripted_api: StartServer
) -> None:
    server = project / "shout_server.py"  # (the sandbox shows the folder, not /tmp)
    server.write_text(SHOUT_SERVER, encoding="utf-8")
    api = scripted_api(
        script(
            reply(tool_use("mcp__notes__shout", {"text": "hello"})),
            reply(
                tool_use("run_command", {"command": "sleep 300", "background": True}),
                expect={"last_tool_result_contains": "HELLO!"},
            ),
            reply(tool_use("task_stop", {"task_id": "1"})),
            reply("Done.", expect={"last_tool_result_contains": "Stopped task 1"}),
        )
    )
    init = {"kesi": {"mcpServers": {"notes": {"command": sys.executable, "args": [str(server)]}}}}
    async with kesi_client(
        "neovim", [project], env=api_env(api), init_options=init, server=Subprocess()
    ) as client:
        client.answer_prompt = lambda params: ALLOW_ONCE

        await listed_ready(client)
        done = await client.run("kesi.ask", {"prompt": "Shout hello, then nap."}, 120)
        assert done["status"] == "done", done
        lines = await audit(client)
        path = Path((await client.command("kesi.audit", {}))["path"])
    mcp, started, ended = lines
    assert re.fullmatch(
        r"MCP notes/shout: asked \(an MCP tool call\), you allowed it once; "
        r"\d+ bytes back in \d+\.\d s",
        mcp,
    ), mcp
    assert started.startswith("command `sleep 300`: "), started
    assert started.endswith(" as background task 1"), started
    assert ended.startswith("background task 1 `sleep 300`: stopped, after "), ended
    raw = await asyncio.to_thread(path.read_text, encoding="utf-8")
    records = [json.loads(line) for line in raw.splitlines()]
    assert [r["kind"] for r in records] == ["mcp_call", "command", "task"]
    assert records[0]["bytes_out"] > len("HELLO!")
    assert records[0] | {"time": "", "run": "", "duration_ms": 0, "bytes_out": 0} == {
        "time": "",
        "run": "",
        "kind": "mcp_call",
        "server": "notes",
        "tool": "shout",
        "verdict": "ask",
        "reason": "an MCP tool call",
        "decided_by": "user",
        "answer": "once",
        "duration_ms": 0,
        "bytes_out": 0,
    }
    assert records[1]["task"] == "1" and "exit_code" not in records[1]
    assert records[2]["state"] == "stopped" and records[2]["command"] == "sleep 300"


@pytest.mark.usefixtures("bwrap")
async def test_network_refusals_and_grants_are_in_the_audit_log(
    project: Path, tmp_path: Path, scripted_api: StartServer
) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "hello.txt").write_text("hello\n", encoding="utf-8")
    fetch = "curl -sS http://{}/hello.txt"
    steps = [reply(tool_use("run_command", {"command": fetch.format(h)})) for h in HOSTS]
    api = scripted_api(script(*steps, reply("done")))
    init = {
        "kesi": {
            "permissions": {"allow": ["curl *"]},
            "maxToolFailures": 10,
            "sandboxNetworkDeny": ["evil.test"],
        }
    }
    with site(pages) as web:
        mapped = ",".join(f"{h}=127.0.0.1:{web.port}" for h in HOSTS)
        env = {**api_env(api), "KESI_TEST_NETWORK_HOSTS": mapped}
        async with kesi_client(
            "vscode", [project], env=env, init_options=init, server=Subprocess()
        ) as client:
            client.answer_prompt = lambda params: (
                "Deny" if "no.test" in params.message else "Allow for this session"
            )
            done = await client.run("kesi.ask", {"prompt": "fetch them"}, 120)
            assert done["status"] == "done", done
            lines = await audit(client)
    network = [line for line in lines if line.startswith("network ")]
    assert network == [
        "network no.test: blocked, asked, you denied it",
        "network yes.test: allowed, asked, you allowed it for the session",
        "network evil.test: blocked, kesi.sandboxNetworkDeny names it",
    ]
    commands = [line for line in lines if line.startswith("command ")]
    assert [line.split("`")[1] for line in commands] == [fetch.format(h) for h in HOSTS]


HOSTS = ("no.test", "yes.test", "evil.test")
