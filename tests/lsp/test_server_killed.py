"""Nothing KeSi starts outlives the language server, also a killed one (issue 34, design §3).

The server is killed with SIGKILL (an editor crash, the OOM killer, `kill -9` of a hung
process) while commands run: one of a run, or two at once in two folders' sessions. Within 2 s
no process of those commands is left (the shell, a background child, the sandbox), with the
real bubblewrap sandbox and with `sandbox: off`. The conversation's resumption after such a kill
is tests/lsp/test_resume_e2e.py's.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.killed import GONE_SECONDS, MODES, STARTED_SECONDS, folder, usable
from tests.lsp.clients import ALLOW_ONCE, kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.servers import Subprocess
from tests.lsp.working_loop import until
from tests.plugins.scripted_api import StartServer
from tests.processes import gone, marked_sleeps, sleeping, unique_sleep

pytestmark = [pytest.mark.e2e, pytest.mark.subprocess]


@pytest.mark.parametrize("mode", MODES)
async def test_a_killed_server_leaves_no_command_behind(
    mode: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    project = folder(tmp_path, "project")
    usable(mode, project)
    marker = unique_sleep()
    api = scripted_api(
        script(reply(tool_use("run_command", {"command": marked_sleeps(marker)}, id="toolu_a")))
    )
    init = {"kesi": {"locale": "en", "sandbox": mode}}
    async with kesi_client(
        "vscode+kesi", [project], env=api_env(api), server=Subprocess(), init_options=init,
        check=False,
    ) as editor:  # fmt: skip
        editor.answer_prompt = lambda params: ALLOW_ONCE
        await editor.command("kesi.ask", {"prompt": "Wait for me."})
        await until(lambda: sleeping(marker) == 2, STARTED_SECONDS)  # it and its background child
        server = editor.lsp._server
        assert server is not None
        server.kill()  # SIGKILL: no shutdown, no exit, nothing the server can do about it
        assert await gone(marker, GONE_SECONDS) == []
        await server.wait()


@pytest.mark.parametrize("mode", MODES)
async def test_a_killed_server_leaves_no_command_of_any_session_behind(
    mode: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    first, second = folder(tmp_path, "first"), folder(tmp_path, "second")
    usable(mode, first)
    markers = unique_sleep(), unique_sleep()
    api = scripted_api(
        script(
            *(
                reply(tool_use("run_command", {"command": marked_sleeps(m)}, id=f"toolu_{i}"))
                for i, m in enumerate(markers)
            )
        )
    )
    init = {"kesi": {"locale": "en", "sandbox": mode}}
    async with kesi_client(
        "vscode+kesi", [first, second], env=api_env(api), server=Subprocess(),
        init_options=init, check=False,
    ) as editor:  # fmt: skip
        editor.answer_prompt = lambda params: ALLOW_ONCE
        for root in (first, second):  # one run in each folder's session
            uri = (root / "notes.txt").as_uri()
            await editor.command("kesi.ask", {"prompt": "Wait for me.", "uri": uri})
        await until(lambda: all(sleeping(m) == 2 for m in markers), STARTED_SECONDS)
        server = editor.lsp._server
        assert server is not None
        server.kill()
        deadline = time.monotonic() + GONE_SECONDS
        for marker in markers:
            assert await gone(marker, max(0.0, deadline - time.monotonic())) == []
        await server.wait()
