"""Cancellation (design §2.8) at every phase of a run, by each of the three routes, and the
next run in the same session being accepted by the strict scripted Messages API.

Routes: the `kesi.cancel` command, the progress Cancel button (`window/workDoneProgress/
cancel`), and the client going away (shutdown/exit, or the pipe closing).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, stall_after, tool_use
from tests.lsp.clients import ALLOW_ONCE, Editor, kesi_client
from tests.lsp.conftest import BUGGY
from tests.lsp.helpers import api_env, result_text, tool_results, wait_for
from tests.lsp.servers import Subprocess
from tests.plugins.scripted_api import StartServer
from tests.processes import processes_with

pytestmark = pytest.mark.e2e

NEXT = reply(
    "Ready for the next task.",
    expect={"last_user_text_contains": "next task"},
    label="the next run",
)


async def never_answer(params: Any) -> str:
    await asyncio.Event().wait()  # the user walked away; only a cancel ends this
    raise AssertionError("unreachable")


def by_command(client: Editor, run_id: str) -> Callable[[], Any]:
    async def cancel() -> None:
        assert await client.command("kesi.cancel", {"runId": run_id}) == {"cancelled": True}

    return cancel


def by_progress(client: Editor, run_id: str) -> Callable[[], Any]:
    async def cancel() -> None:
        (token,) = client.lsp.progress_reports
        client.lsp.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token=token))

    return cancel


ROUTES = {"kesi.cancel": by_command, "progress": by_progress}


async def finish_then_next(client: Editor, run_id: str) -> dict[str, Any]:
    done = await client.wait_finished(run_id, 30)
    assert done["status"] == "cancelled", done
    following = await client.run("kesi.ask", {"prompt": "next task"})
    assert following["status"] == "done", following
    assert following["text"] == "Ready for the next task."
    return done


@pytest.mark.parametrize("route", list(ROUTES))
async def test_cancel_while_the_model_streams(
    route: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(stall_after(6, "Let me think about this for a long while."), NEXT))
    async with kesi_client("neovim+kesi", [project], env=api_env(api)) as client:
        run = await client.command("kesi.ask", {"prompt": "think"})
        await wait_for(lambda: client.stream(run["runId"], "text"))
        started = time.monotonic()
        await ROUTES[route](client, run["runId"])()
        done = await finish_then_next(client, run["runId"])
        assert time.monotonic() - started < 10
        notices = client.stream(run["runId"], "notice")
        assert any(n["notice"] == "interrupted" for n in notices)
        assert done["text"]
    # The second request carried a history the strict API accepted: the fixture checks that.
    assert len(api.requests) == 2


PROMPT_INTERRUPTED = {
    "en": "Error: the user interrupted the permission prompt.",
    "zh-TW": "錯誤：使用者中斷了授權詢問。",
}
SKIPPED = {
    "en": "Error: this round was interrupted; the tool was not run.",
    "zh-TW": "錯誤：這一輪已中斷，工具沒有執行。",
}


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
@pytest.mark.parametrize("route", list(ROUTES))
async def test_cancel_while_a_permission_prompt_waits(
    route: str, locale: str, project: Path, scripted_api: StartServer
) -> None:
    """Seed Day 14: the interrupted tool says the permission prompt was interrupted, and the
    rest of the batch is marked interrupted; the next request is still valid."""
    batch = reply(
        tool_use("run_command", {"command": "touch late"}),
        tool_use("read_file", {"file_path": "calc.py"}),
    )
    api = scripted_api(script(batch, NEXT))
    init = {"locale": locale}
    async with kesi_client("neovim", [project], env=api_env(api), init_options=init) as client:
        client.answer_prompt = never_answer
        run = await client.command("kesi.ask", {"prompt": "touch it"})
        await wait_for(lambda: client.prompts)
        await ROUTES[route](client, run["runId"])()
        await finish_then_next(client, run["runId"])
        assert not (project / "late").exists()
    command, read = tool_results(api.requests[1])
    assert command["is_error"] and result_text(command) == PROMPT_INTERRUPTED[locale]
    assert read["is_error"] and result_text(read) == SKIPPED[locale]


@pytest.mark.parametrize("preset", ["neovim+kesi", "emacs"])
async def test_cancel_while_the_user_reviews_an_edit(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    """Reviewing an edit is the edit's permission question: its interruption says so."""
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                tool_use(
                    "edit_file",
                    {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
                )
            ),
            NEXT,
        )
    )
    async with kesi_client(preset, [project], env=api_env(api)) as client:
        client.answer_review = never_answer
        client.answer_prompt = never_answer
        run = await client.command("kesi.ask", {"prompt": "fix"})
        await wait_for(lambda: client.reviews or client.prompts)
        await by_command(client, run["runId"])()
        await finish_then_next(client, run["runId"])
        assert (project / "calc.py").read_text() == BUGGY and not client.applied
    edit = tool_results(api.requests[2])[-1]
    assert edit["is_error"] and result_text(edit) == PROMPT_INTERRUPTED["en"]


@pytest.mark.parametrize("route", list(ROUTES))
async def test_cancel_kills_a_running_command(
    route: str, project: Path, scripted_api: StartServer
) -> None:
    marker = f"sleep {371 + len(route)}"
    api = scripted_api(script(reply(tool_use("run_command", {"command": marker})), NEXT))
    async with kesi_client("neovim+kesi", [project], env=api_env(api)) as client:
        client.answer_prompt = lambda params: ALLOW_ONCE
        run = await client.command("kesi.ask", {"prompt": "wait"})
        await wait_for(lambda: processes_with(marker, zombies=True))
        started = time.monotonic()
        await ROUTES[route](client, run["runId"])()
        await finish_then_next(client, run["runId"])
        assert time.monotonic() - started < 10
        assert processes_with(marker, zombies=True) == []


async def test_cancel_without_a_run_says_so(project: Path, scripted_api: StartServer) -> None:
    async with kesi_client("vscode", [project]) as client:
        assert await client.command("kesi.cancel", {}) == {"cancelled": False}
        assert await client.command("kesi.cancel", {"runId": "nope"}) == {"cancelled": False}


@pytest.mark.parametrize("how", ["shutdown", "eof"])
@pytest.mark.subprocess
async def test_client_going_away_stops_the_run_and_its_command(
    how: str, project: Path, scripted_api: StartServer
) -> None:
    marker = f"sleep {381 + len(how)}"
    api = scripted_api(script(reply(tool_use("run_command", {"command": marker}))))
    api.allow_problems()  # the run never gets to send its next request
    real = Subprocess()  # the process's exit is what this is about
    async with kesi_client(
        "neovim", [project], env=api_env(api), server=real, check=False
    ) as client:
        client.answer_prompt = lambda params: ALLOW_ONCE
        await client.command("kesi.ask", {"prompt": "wait"})
        await wait_for(lambda: processes_with(marker, zombies=True))
        server = client.lsp._server
        assert server is not None
        started = time.monotonic()
        if how == "shutdown":
            await asyncio.wait_for(client.lsp.shutdown_session(), 20)
        else:
            assert server.stdin is not None
            server.stdin.close()
        assert await asyncio.wait_for(server.wait(), 20) == 0
        assert time.monotonic() - started < 15
        assert processes_with(marker, zombies=True) == []
