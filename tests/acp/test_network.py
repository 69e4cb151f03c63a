"""ACP asks to widen the sandbox's network through `session/request_permission` (issue 27):
the proxy refuses a host that is not on the allow-list, the client is asked once on a card of
its own (kind `fetch`), and its answer decides the next command's outcome. Real bubblewrap,
the scripted Messages API, `kesi-lsp acp` over its stdio; `new.test` is a loopback server
mapped inside the proxy's resolver (`KESI_TEST_NETWORK_HOSTS`), nothing reaches the internet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.acp.editor import EditorClient, acp_agent, agent_env
from tests.core.network.servers import site
from tests.core.sandbox.conftest import bwrap
from tests.plugins.scripted_api import StartServer

__all__ = ["bwrap"]
pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("bwrap")]
CURL = "curl -sS http://new.test/hello.txt"
META = {"permissions": {"allow": ["curl *"]}, "maxToolFailures": 10}


def curl_after(seen: str) -> Any:
    return reply(
        tool_use("run_command", {"command": CURL}), expect={"last_tool_result_contains": seen}
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("answer", "first", "second"),
    [
        ("allow-session", "allowed network access to new.test for this session", "hello from"),
        ("reject", "did not allow network access to new.test", "already refused network access"),
    ],
)
async def test_a_new_host_is_asked_on_a_fetch_card_and_the_answer_holds(
    answer: str, first: str, second: str, project: Path, tmp_path: Path, scripted_api: StartServer
) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    (pages / "hello.txt").write_text("hello from the loopback host\n")
    api = scripted_api(
        script(
            reply(tool_use("run_command", {"command": CURL})),
            curl_after(first),
            reply("done", expect={"last_tool_result_contains": second}),
        )
    )

    def answering(call: Any, options: Any) -> str:
        return answer if call.kind == "fetch" else "allow-once"

    client = EditorClient(answer=answering)
    with site(pages) as web:
        env = agent_env(api, KESI_TEST_NETWORK_HOSTS=f"new.test=127.0.0.1:{web.port}")
        async with acp_agent(env, client, meta=META) as agent:
            done = await agent.prompt(await agent.start(project), "fetch it")
    assert done.stop_reason == "end_turn"
    hosts = [a for a in client.asked if a.tool_call.get("kind") == "fetch"]
    assert len(hosts) == 1, client.asked  # once per host, whatever the answer
    assert [o["optionId"] for o in hosts[0].options] == [
        "reject",
        "allow-session",
        "allow-always",
    ]
    assert "new.test" in str(hosts[0].tool_call)
    assert web.hits == (["/hello.txt"] if answer == "allow-session" else [])
