"""Widening the sandbox's network over the real wire (issue 27): the scripted model runs curl
in the real bubblewrap sandbox, the proxy refuses a host that is not on the allow-list, the
user is asked through `window/showMessageRequest` once for that host, and the next command's
outcome follows the answer; `kesi.permissions` lists the grant and `kesi.revoke` clears it.

The test name `new.test` is mapped to a loopback web server inside the proxy's resolver
(`KESI_TEST_NETWORK_HOSTS`): nothing reaches the internet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.network.servers import site
from tests.core.sandbox.conftest import bwrap
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.servers import Subprocess
from tests.plugins.scripted_api import StartServer

__all__ = ["bwrap"]
pytestmark = pytest.mark.usefixtures("bwrap")
CURL = "curl -sS http://new.test/hello.txt"
INIT = {"kesi": {"permissions": {"allow": ["curl *"]}, "maxToolFailures": 10}}


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "hello.txt").write_text("hello from the allowed host\n")
    return folder


def then(seen: str, command: str = CURL) -> object:
    return reply(
        tool_use("run_command", {"command": command}),
        expect={"last_tool_result_contains": seen},
    )


def host_prompts(client: Any) -> list[str]:
    return [p.message for p in client.prompts if "Allow network access" in p.message]


async def test_allowed_for_the_session_the_next_command_gets_through(
    project: Path, pages: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": CURL})),
            then("The user allowed network access to new.test for this session"),
            reply("done", expect={"last_tool_result_contains": "hello from the allowed host"}),
        )
    )
    with site(pages) as web:
        env = {**api_env(api), "KESI_TEST_NETWORK_HOSTS": f"new.test=127.0.0.1:{web.port}"}
        async with kesi_client("vscode", [project], env=env, init_options=INIT) as client:
            client.answer_prompt = lambda params: "Allow for this session"
            done = await client.run("kesi.ask", {"prompt": "fetch it"})
            assert done["status"] == "done"
            assert len(host_prompts(client)) == 1
            assert [b.title for b in client.prompts[0].actions or []] == [
                "Deny",
                "Allow for this session",
                "Allow always",
            ]
            listed = await client.command("kesi.permissions", {})
            assert listed["hosts"] == ["new.test"]
            assert listed["network"] == {"mode": "ask", "allow": [], "deny": []}
            assert "Allowed hosts: new.test" in listed["lines"]
            await client.command("kesi.revoke", {})
            assert (await client.command("kesi.permissions", {}))["hosts"] == []
        assert web.hits == ["/hello.txt"]  # only the second command reached the server


@pytest.mark.subprocess
async def test_denied_over_stdio_the_model_is_told_and_nobody_is_asked_again(
    project: Path, pages: Path, scripted_api: StartServer
) -> None:
    """A real `kesi-lsp` process over stdio, as Neovim talks to it."""
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": CURL})),
            then("The user did not allow network access to new.test. Do not try"),
            reply("done", expect={"last_tool_result_contains": "already refused network access"}),
        )
    )
    with site(pages) as web:
        env = {**api_env(api), "KESI_TEST_NETWORK_HOSTS": f"new.test=127.0.0.1:{web.port}"}
        async with kesi_client(
            "neovim", [project], env=env, init_options=INIT, server=Subprocess()
        ) as client:
            client.answer_prompt = lambda params: "Deny"
            done = await client.run("kesi.ask", {"prompt": "fetch it"})
            assert done["status"] == "done"
            assert len(host_prompts(client)) == 1
        assert web.hits == []
