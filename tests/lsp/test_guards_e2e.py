"""The loop's guards over the real wire: a model repeating the same call is stopped with limit
`repeating` and told what to do; a stream that stalls is closed by the watchdog, the run fails
saying so, and the next request in the session works."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, stall_after, tool_use
from tests.lsp.clients import kesi_client
from tests.lsp.helpers import api_env
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

SAME = reply("Let me list the folder again.", tool_use("list_files", {}), forever=True)


@pytest.mark.parametrize("preset", ["vscode+kesi", "emacs"])
async def test_a_repeating_model_is_stopped_and_the_user_told_what_repeated(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(SAME))
    init = {"kesi": {"locale": "en"}}
    async with kesi_client(preset, [project], env=api_env(api), init_options=init) as c:
        done = await c.run("kesi.ask", {"prompt": "What is here?"})
        assert done["status"] == "limit" and done["limit"] == "repeating"
        assert "list_files {}" in done["text"] and "4 times in a row" in done["text"]
        assert len(api.requests) == 4
        (error,) = c.shown(types.MessageType.Error)
        assert error.startswith("KeSi stopped at a limit: Stopped: the model called list_files")
        assert "Give KeSi what it was missing" in error


async def test_a_stalled_stream_is_closed_and_the_next_run_works(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            stall_after(3, "I will look at calc.py.", seconds=30),
            reply("Working again.", expect={"last_user_text_contains": "once more"}),
        )
    )
    init = {"kesi": {"locale": "en", "streamIdleTimeout": 1}}
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=init) as c:
        done = await c.run("kesi.ask", {"prompt": "What does calc.py do?"}, seconds=30)
        assert done["status"] == "failed"
        assert "stalled: nothing arrived for 1 s" in done["text"]
        (error,) = c.shown(types.MessageType.Error)
        assert "stalled" in error
        again = await c.run("kesi.ask", {"prompt": "Try once more."})
        assert again["status"] == "done" and again["text"] == "Working again."


async def test_a_bad_idle_timeout_setting_is_reported_and_defaulted(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Hi.")))
    init = {"kesi": {"locale": "en", "streamIdleTimeout": -5, "searchMaxTurns": 1}}
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=init) as c:
        done = await c.run("kesi.ask", {"prompt": "Hello"})
        assert done["status"] == "done"
        warnings = c.shown(types.MessageType.Warning)
        assert any("kesi.streamIdleTimeout" in w and "60" in w for w in warnings)
        assert any("kesi.searchMaxTurns" in w and "10" in w for w in warnings)
