"""Resume over the real wire: the server is killed in the middle of a run; the next server
started on the same folder continues the conversation, says so in the first line of its first
run, has sealed the interrupted round as Ctrl-C seals it (the strict scripted API accepts the
next request), and keeps the bill; the killed server's command did not outlive it (issue 34);
`kesi.reset` starts fresh and deletes the saved copy."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from kesi_lsp.core.persistence import ConversationStore, state_directory
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.killed import GONE_SECONDS, STARTED_SECONDS
from tests.lsp.clients import ALLOW_ONCE, kesi_client
from tests.lsp.helpers import api_env
from tests.lsp.servers import Subprocess
from tests.lsp.working_loop import until
from tests.plugins.scripted_api import StartServer
from tests.processes import gone, sleeping, unique_sleep

pytestmark = pytest.mark.e2e

EN = {"kesi": {"locale": "en"}}
MARK = unique_sleep()
SLEEP = f"sleep {MARK}"  # a command still running when the server is killed (found by its text)


def _saved(project: Path) -> Path:
    directory = state_directory(os.environ)
    assert directory is not None and "kesi-test-state-" in str(directory)  # never the real home
    return ConversationStore(directory).file_for(project.resolve())


def _mentions(path: Path, needle: str) -> bool:
    try:
        return needle in path.read_text(encoding="utf-8")
    except (OSError, ValueError):
        return False


@pytest.mark.subprocess
async def test_a_run_killed_mid_way_is_resumed_sealed_by_the_next_server(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply("Waiting a moment.", tool_use("run_command", {"command": SLEEP}, id="toolu_k")),
            reply(
                "The wait was cut short; its state is unknown, so I will check first.",
                expect={"message_count": 5, "last_user_text_contains": "Where were we?"},
            ),
        )
    )
    saved = _saved(project)
    real = Subprocess()  # a process, so that it can be killed
    async with kesi_client(
        "vscode+kesi", [project], env=api_env(api), server=real, init_options=EN, check=False
    ) as first:
        first.answer_prompt = lambda params: ALLOW_ONCE
        await first.command("kesi.ask", {"prompt": "Wait for me."})
        await until(lambda: sleeping(MARK) == 1, STARTED_SECONDS)  # the command runs...
        await until(lambda: _mentions(saved, "toolu_k"))  # ...and is saved with its call
        process = first.lsp._server
        assert process is not None
        process.kill()  # SIGKILL: no shutdown, no Ctrl-C, nothing sealed on the way out
        assert await gone(SLEEP, GONE_SECONDS) == []  # and nothing of it outlives the server
        await process.wait()

    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=EN) as c:
        cost = await c.command("kesi.cost", {})
        assert cost["requests"] == 1  # the bill came back with the conversation
        done = await c.run("kesi.ask", {"prompt": "Where were we?"})
        assert done["status"] == "done", done
        first_line, second = c.stream(done["runId"])[:2]
        assert first_line["notice"] == "resume"
        assert first_line["text"].startswith("Continuing this folder's conversation from ")
        assert "(2 messages" in first_line["text"]
        assert first_line["text"].endswith("To start fresh, use “KeSi: Reset”.")  # VS Code's
        assert second["notice"] == "resume" and "cut short" in second["text"]
        messages = api.requests[-1].body["messages"]
        sealed = messages[2]["content"][0]
        assert sealed["tool_use_id"] == "toolu_k" and "unknown" in sealed["content"]
        assert messages[3]["role"] == "assistant"
    assert json.loads(saved.read_text())["running"] is False


async def test_reset_starts_fresh_and_deletes_the_saved_conversation(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply("Hello."),
            reply("A fresh start.", expect={"message_count": 1}),
        )
    )
    saved = _saved(project)
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=EN) as c:
        await c.run("kesi.ask", {"prompt": "Hi."})
        await until(saved.exists)
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=EN) as c:
        reset = await c.command("kesi.reset", {})
        assert reset == {"message": "(history and file version records cleared; starting over)"}
        await until(lambda: not saved.exists())
        done = await c.run("kesi.ask", {"prompt": "Hello again."})
        assert done["text"] == "A fresh start."
        assert all(n.get("notice") != "resume" for n in c.stream(done["runId"], "notice"))
