"""Widening the sandbox's network over the real wire (issue 27): the scripted model runs pip,
git and curl in the real bubblewrap sandbox, the proxy lets the allowed hosts through and
refuses one that is not on the allow-list, the user is asked through
`window/showMessageRequest` once for that host, and the next command's outcome follows the
answer; `kesi.permissions` lists the grant and `kesi.revoke` clears it. Each flow runs in the
VS Code preset (the server in this process) and the Neovim one (a `kesi-lsp` process over
stdio, as Neovim starts it).

The test names (`pypi.test`, `git.test`, `new.test`) are mapped to loopback web servers inside
the proxy's resolver (`KESI_TEST_NETWORK_HOSTS`): nothing reaches the internet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.network.conftest import pages
from tests.core.network.servers import site
from tests.core.network.toolchains import GREETING, git_repository, package_index
from tests.core.sandbox.conftest import bwrap
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.servers import ServerChoice, Subprocess
from tests.plugins.scripted_api import StartServer

__all__ = ["bwrap", "pages"]
pytestmark = pytest.mark.usefixtures("bwrap")
CURL = "curl -sS http://new.test/hello.txt"
INIT = {"kesi": {"permissions": {"allow": ["curl *"]}, "maxToolFailures": 10}}
PIP = (
    "python3 -m pip install --disable-pip-version-check --no-cache-dir --trusted-host pypi.test"
    " --index-url http://pypi.test/simple/ --target deps kesi-probe"
)
GIT = "git clone http://git.test/probe.git clone"
TOOLS = {
    "kesi": {
        "permissions": {"allow": ["curl *", "python3 -m pip *", "git clone *"]},
        "sandboxNetworkAllow": ["pypi.test", "git.test"],
        "maxToolFailures": 10,
    }
}
PRESETS = [
    pytest.param("vscode", None, id="vscode"),
    pytest.param("neovim", Subprocess(), id="neovim-stdio", marks=pytest.mark.subprocess),
]


def then(seen: str, command: str = CURL) -> object:
    return reply(
        tool_use("run_command", {"command": command}),
        expect={"last_tool_result_contains": seen},
    )


def host_prompts(client: Any) -> list[str]:
    return [p.message for p in client.prompts if "Allow network access" in p.message]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "server"), PRESETS)
async def test_pip_and_git_reach_allowed_hosts_and_a_new_host_asks_once(
    preset: str, server: ServerChoice, project: Path, tmp_path: Path,
    pages: Path, scripted_api: StartServer,
) -> None:  # fmt: skip
    """pip installs from the allowed index, git clones from the allowed server, curl to a new
    host is refused and asks; allowed for the session, the next curl gets through."""
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": PIP})),
            then("Successfully installed kesi-probe-1.0", GIT),
            then("Cloning into 'clone'", CURL),
            then("The user allowed network access to new.test for this session"),
            reply("done", expect={"last_tool_result_contains": "hello from the allowed host"}),
        )
    )
    index, repos = package_index(tmp_path / "index"), git_repository(tmp_path / "repos")
    with site(pages) as web, site(index) as pypi, site(repos) as git:
        hosts = f"new.test=127.0.0.1:{web.port},pypi.test=127.0.0.1:{pypi.port}"
        env = {**api_env(api), "KESI_TEST_NETWORK_HOSTS": f"{hosts},git.test=127.0.0.1:{git.port}"}
        async with kesi_client(
            preset, [project], env=env, init_options=TOOLS, server=server
        ) as client:
            client.answer_prompt = lambda params: "Allow for this session"
            # Four sandboxed commands, one a pip install: more work than the default 60 s wait.
            done = await client.run("kesi.ask", {"prompt": "set it up"}, seconds=180)
            assert done["status"] == "done"
            asked = host_prompts(client)
            assert len(asked) == 1 and "new.test" in asked[0], asked  # pypi, git never asked
    assert any(hit.endswith(".whl") for hit in pypi.hits), pypi.hits
    assert GREETING in (project / "deps" / "kesi_probe" / "__init__.py").read_text()
    assert (project / "clone" / "README.md").read_text() == "cloned through the proxy\n"
    assert web.hits == ["/hello.txt"]  # the refused first curl never reached the server


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


@pytest.mark.parametrize(("preset", "server"), PRESETS)
async def test_denied_the_model_is_told_and_nobody_is_asked_again(
    preset: str, server: ServerChoice, project: Path, pages: Path, scripted_api: StartServer
) -> None:
    """Deny keeps the host blocked: the next command is refused without a second question."""
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
            preset, [project], env=env, init_options=INIT, server=server
        ) as client:
            client.answer_prompt = lambda params: "Deny"
            done = await client.run("kesi.ask", {"prompt": "fetch it"})
            assert done["status"] == "done"
            assert len(host_prompts(client)) == 1
        assert web.hits == []
