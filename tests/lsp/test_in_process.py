"""The in-process server the language-server tests use ends like a server process does.

kesi_lsp.testing.InProcess serves the real server in a thread over OS pipes. When the editor
goes away without a shutdown (a test that failed halfway), the server's input closes: it must
stop its runs and the commands they started, and its thread must end, so one test never leaks
a server into the next.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from kesi_lsp.testing import connected
from tests.lsp.clients import ALLOW_ONCE, new_editor
from tests.lsp.conftest import AgentCommand
from tests.lsp.helpers import api_env, wait_for
from tests.lsp.servers import in_process
from tests.plugins.scripted_api import StartServer
from tests.processes import processes_with

pytestmark = pytest.mark.e2e

THREAD = "kesi-in-process-server"


def serving() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == THREAD]


async def test_a_polite_shutdown_ends_the_thread(
    project: Path, scripted_agent: AgentCommand
) -> None:
    editor = new_editor("vscode")
    async with connected(editor.lsp, in_process(scripted_agent([]), None)) as connection:
        await editor.initialize([project])
        assert connection.running and len(serving()) == 1
        await editor.lsp.shutdown_session()
    assert not connection.running and serving() == []


async def test_an_editor_that_goes_away_stops_the_run_its_command_and_the_thread(
    project: Path, scripted_api: StartServer
) -> None:
    marker = "sleep 391"
    api = scripted_api(script(reply(tool_use("run_command", {"command": marker}))))
    api.allow_problems()  # the run never gets to send its next request
    editor = new_editor("neovim")
    editor.answer_prompt = lambda params: ALLOW_ONCE
    server = in_process(None, api_env(api))
    with pytest.raises(RuntimeError, match="the editor left"):
        async with connected(editor.lsp, server) as connection:
            await editor.initialize([project])
            await editor.command("kesi.ask", {"prompt": "wait"})
            await wait_for(lambda: processes_with(marker, zombies=True))
            raise RuntimeError("the editor left")  # no shutdown, no exit: the pipes close
    assert not connection.running and serving() == []
    assert processes_with(marker, zombies=True) == []
