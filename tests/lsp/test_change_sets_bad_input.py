"""Keep and undo when things are not as expected (design §2.9): each gets a clear message and
nothing the user wrote is lost -- a hunk the user typed in, a file they deleted, an undo of a run
that is still going, unknown and dropped ids, a second window acting twice."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from kesi_lsp.scripted_api import reply, script, stall_after
from tests.lsp.change_sets import (
    ACCEPT,
    CALC,
    FIXED,
    api_env,
    disk,
    edit,
    kesi_diagnostics,
    rename,
    states,
    two_hunks,
    until,
)
from tests.lsp.clients import KesiClient, kesi_client
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e


@pytest.fixture
def calc(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    path = root / "calc.py"
    path.write_text(CALC)
    return path


async def refused(client: KesiClient, command: str, argument: dict[str, Any]) -> str:
    with pytest.raises(JsonRpcException) as caught:
        await client.command(command, argument)
    return str(caught.value.message)


async def hunk_ids(client: KesiClient) -> list[str]:
    listing = await client.command("kesi.changes", {})
    return [h["id"] for run in listing["runs"] for f in run["files"] for h in f["hunks"]]


@pytest.mark.parametrize("preset", ["vscode", "helix"])
async def test_a_hunk_the_user_typed_in_is_named_and_left_alone(
    preset: str, calc: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(*two_hunks()))
    async with kesi_client(preset, [calc.parent], env=api_env(api), init_options=ACCEPT) as client:
        client.open(calc)
        await client.run("kesi.ask", {"prompt": "fix"})
        client.type_text(calc, "return a + b", "return a + b  # checked by hand")
        mine = FIXED.replace("return a + b", "return a + b  # checked by hand")
        result = await client.command("kesi.undo", {"uri": client.uri(calc)})
        assert result["message"] == (
            "KeSi: undid calc.py line 6.\n"
            "calc.py line 2: left alone, because it was changed after KeSi wrote it (that text "
            "stays)."
        )
        assert [s["reason"] for s in result["skipped"]] == ["modified"]
        expected = mine.replace("sub(a, b):\n    return a - b", "sub(a, b):\n    return a + b")
        await until(lambda: client.buffer(calc).text == expected)
        await until(lambda: disk(calc) == expected)
        if preset == "helix":  # no KeSi client: the answer is shown as a message
            assert result["message"] in client.shown(types.MessageType.Info)
        listing = await client.command("kesi.changes", {})
        assert states(listing) == {"calc.py": ["modified", "undone"]}


async def test_undo_of_a_file_the_user_deleted(calc: Path, scripted_api: StartServer) -> None:
    api = scripted_api(script(*two_hunks()))
    async with kesi_client("vscode", [calc.parent], env=api_env(api), init_options=ACCEPT) as c:
        c.open(calc)
        await c.run("kesi.ask", {"prompt": "fix"})
        c.buffers.close(calc)
        rename(calc, calc.with_name("renamed.py"))
        result = await c.command("kesi.undoRun", {})
        assert result["message"].splitlines() == [
            "calc.py line 2: the file is not there any more (deleted or renamed), so KeSi cannot "
            "undo its change.",
            "calc.py line 6: the file is not there any more (deleted or renamed), so KeSi cannot "
            "undo its change.",
        ]
        assert disk(calc) is None and disk(calc.with_name("renamed.py")) == FIXED


async def test_undo_run_while_a_run_is_going_is_refused(
    calc: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(*two_hunks(), stall_after(3, "Thinking about it for a while.")))
    async with kesi_client("vscode", [calc.parent], env=api_env(api), init_options=ACCEPT) as c:
        c.open(calc)
        await c.run("kesi.ask", {"prompt": "fix"})
        started = await c.command("kesi.ask", {"prompt": "and now?"})
        await asyncio.to_thread(api.wait_stalled, 20)
        message = await refused(c, "kesi.undoRun", {})
        assert message == (
            "KeSi is still working in this folder. Cancel the run first, then undo it."
        )
        assert c.buffer(calc).text == disk(calc) == FIXED
        await c.command("kesi.cancel", {"runId": started["runId"]})
        await c.wait_finished(started["runId"])
        result = await c.command("kesi.undoRun", {})
        assert result["message"] == "KeSi: undid calc.py line 2, calc.py line 6."
        await until(lambda: c.buffer(calc).text == CALC)


async def test_unknown_ids_and_nothing_to_do(calc: Path, scripted_api: StartServer) -> None:
    api = scripted_api(script(*two_hunks()))
    async with kesi_client("vscode", [calc.parent], env=api_env(api), init_options=ACCEPT) as c:
        assert await refused(c, "kesi.undo", {}) == (
            "KeSi has no changes to act on in this folder: no run has changed a file yet."
        )
        c.open(calc)
        await c.run("kesi.ask", {"prompt": "fix"})
        assert (await refused(c, "kesi.undoRun", {"runId": "0123456789ab"})).startswith(
            "There is no KeSi run 0123456789ab in this folder."
        )
        assert (await refused(c, "kesi.keep", {"hunkId": "7.77"})).startswith(
            "KeSi has no change 7.77 in this folder"
        )
        assert c.buffer(calc).text == disk(calc) == FIXED
        assert len(kesi_diagnostics(c, calc)) == 2 or await _two(c, calc)


async def _two(client: KesiClient, calc: Path) -> bool:
    await until(lambda: len(kesi_diagnostics(client, calc)) == 2)
    return True


async def test_a_second_window_acting_twice_changes_nothing_more(
    calc: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(*two_hunks()))
    async with kesi_client("vscode", [calc.parent], env=api_env(api), init_options=ACCEPT) as c:
        c.open(calc)
        await c.run("kesi.ask", {"prompt": "fix"})
        first, second = await hunk_ids(c)
        undo = {"uri": c.uri(calc), "hunkId": first}
        assert (await c.command("kesi.undo", undo))["message"] == "KeSi: undid calc.py line 2."
        await until(lambda: c.buffer(calc).text.startswith("def add(a, b):\n    return a - b"))
        text = c.buffer(calc).text
        applied = len(c.applied)
        twice = await c.command("kesi.undo", undo)
        assert twice["message"] == "Nothing to do: calc.py line 2 already undone."
        keep = {"uri": c.uri(calc), "hunkId": second}
        assert (await c.command("kesi.keep", keep))["message"] == "KeSi: kept calc.py line 6."
        again = await c.command("kesi.keep", keep)
        assert again["message"] == "Nothing to do: calc.py line 6 already kept."
        keep_undone = await c.command("kesi.keep", undo)
        assert keep_undone["message"] == (
            "calc.py line 2: already undone, so there is nothing to keep."
        )
        assert len(c.applied) == applied and c.buffer(calc).text == text == disk(calc)


@pytest.mark.slow  # 51 whole runs over the wire
async def test_a_change_set_dropped_for_the_memory_limit_says_so(
    tmp_path: Path, scripted_api: StartServer
) -> None:
    """51 runs each change one line: the oldest change set goes, with a notice, and asking for
    it by id says it was dropped (its change stays in the file)."""
    root = tmp_path / "project"
    root.mkdir()
    lines = root / "lines.py"
    lines.write_text("".join(f"x{i} = 0\n" for i in range(51)))
    steps = []
    for i in range(51):
        steps += [reply(edit("lines.py", f"x{i} = 0\n", f"x{i} = 1\n")), reply("ok")]
    api = scripted_api(script(*steps))
    async with kesi_client("vscode", [root], env=api_env(api), init_options=ACCEPT) as c:
        ids = []
        for i in range(51):
            done = await c.run("kesi.ask", {"prompt": f"change x{i}"})
            ids.append(done["runId"])
        notices = [line for line in c.log_lines() if "KeSi forgot the changes" in line]
        assert notices == [
            "  (KeSi forgot the changes of 1 older run(s) in this folder to stay within its "
            "memory limit (50 runs or 20 MB of original text per folder). Those changes stay in "
            "your files, but KeSi can no longer undo them.)"
        ]
        message = await refused(c, "kesi.undoRun", {"runId": ids[0]})
        assert message.startswith(f"The changes of KeSi run {ids[0]} were dropped")
        assert lines.read_text().startswith("x0 = 1\n")
        listing = await c.command("kesi.changes", {})
        assert len(listing["runs"]) == 50
