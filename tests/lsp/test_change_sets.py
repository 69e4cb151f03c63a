"""Change sets over the real wire (design §2.9), in the VS Code, Neovim, Emacs and Helix-like
presets: under acceptEdits two hunks land pending, show as KeSi diagnostics, lenses and code
actions; undo one, keep the other; disk, buffer and `kesi.changes` agree; the next request
carries the note; the user's own typing elsewhere is never the agent's."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.change_sets import (
    ACCEPT,
    CALC,
    FIXED,
    actions,
    api_env,
    calc_project,
    edit,
    kesi_diagnostics,
    lenses,
    run_command,
    states,
    two_hunks,
    until,
)
from tests.lsp.clients import EDITOR_PRESETS, kesi_client
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

NOTE = (
    "Undone by the user: calc.py line 2 (your change was taken back):\n"
    "    -    return a + b\n    +    return a - b"
)


@pytest.mark.parametrize("preset", EDITOR_PRESETS)
async def test_undo_one_hunk_keep_the_other_and_the_model_hears_it(
    preset: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    root, calc = calc_project(tmp_path)
    api = scripted_api(
        script(
            *two_hunks(),
            reply(
                "Understood: I leave add as it is.",
                expect={"last_user_text_contains": NOTE},
            ),
        )
    )
    async with kesi_client(preset, [root], env=api_env(api), init_options=ACCEPT) as client:
        client.open(calc)
        done = await client.run("kesi.ask", {"prompt": "fix the signs", "uri": client.uri(calc)})
        assert done["status"] == "done" and done["edits"] == ["calc.py"]
        assert client.buffer(calc).text == calc.read_text() == FIXED
        # Two pending hunks: every client sees where they are.
        await until(lambda: len(kesi_diagnostics(client, calc)) == 2)
        first, second = kesi_diagnostics(client, calc)
        assert (first.range.start.line, second.range.start.line) == (1, 5)
        assert first.severity is not None and first.severity.value == 3  # Information
        titles = [lens.command.title for lens in await lenses(client, calc) if lens.command]
        assert titles == [
            "KeSi: Keep",
            "KeSi: Undo",
            "Keep all",
            "Undo all",
            "KeSi: Keep",
            "KeSi: Undo",
        ]
        offered = {a.title: a for a in await actions(client, calc, 1, [first])}
        assert {
            "KeSi: keep this change",
            "KeSi: undo this change",
            "KeSi: undo the last run",
        } <= set(offered)
        # The user types a line of their own between the two hunks: it is theirs.
        client.type_text(calc, "\n\n\ndef sub", "\n\n# mine\n\ndef sub")
        undone = await run_command(client, offered["KeSi: undo this change"].command)
        assert undone["message"] == "KeSi: undid calc.py line 2."
        expected = CALC.replace("\n\n\ndef sub", "\n\n# mine\n\ndef sub").replace(
            "return a + b", "return a - b"
        )
        await until(lambda: client.buffer(calc).text == expected)
        keep = [a for a in await actions(client, calc, 6) if a.title == "KeSi: keep this change"]
        kept = await run_command(client, keep[0].command)
        assert kept["message"] == "KeSi: kept calc.py line 7."
        listing = await client.command("kesi.changes", {"uri": client.uri(calc)})
        assert states(listing) == {"calc.py": ["undone", "kept"]}
        await until(lambda: calc.read_text() == expected)
        await until(lambda: kesi_diagnostics(client, calc) == [])
        assert client.buffer(calc).text == expected
        again = await client.run("kesi.ask", {"prompt": "anything else?"})
        assert again["status"] == "done"


@pytest.mark.parametrize("preset", EDITOR_PRESETS)
async def test_undo_run_takes_back_two_edits_and_a_new_file_but_not_the_users_typing(
    preset: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    root = tmp_path / "project"
    root.mkdir()
    calc, util, new = root / "calc.py", root / "util.py", root / "helpers.py"
    calc.write_text(CALC)
    util.write_text("def twice(x):\n    return x + x\n")
    api = scripted_api(
        script(
            reply("Fixing add.", edit("calc.py", "return a - b", "return a + b")),
            reply("And twice.", edit("util.py", "return x + x", "return 2 * x")),
            reply(
                "A helper.",
                tool_use("write_file", {"file_path": "helpers.py", "content": "HELP = 1\n"}),
            ),
            reply("Done."),
        )
    )
    async with kesi_client(preset, [root], env=api_env(api), init_options=ACCEPT) as client:
        client.open(calc)
        done = await client.run("kesi.ask", {"prompt": "tidy up"})
        assert done["status"] == "done"
        assert new.read_text() == "HELP = 1\n"
        client.type_text(calc, "def sub(a, b):", "def sub(a, b):  # the user's")
        result = await client.command("kesi.undoRun", {})
        assert "KeSi: undid" in result["message"] and not result["failed"], result
        await until(lambda: not new.exists())
        mine = CALC.replace("def sub(a, b):", "def sub(a, b):  # the user's")
        await until(lambda: client.buffer(calc).text == mine)
        assert util.read_text() == "def twice(x):\n    return x + x\n"
        listing = await client.command("kesi.changes", {})
        assert states(listing) == {
            "calc.py": ["undone"],
            "util.py": ["undone"],
            "helpers.py": ["undone"],
        }


@pytest.mark.parametrize("preset", ["vscode", "neovim", "emacs"])
async def test_day9_the_users_title_stays_and_the_count_is_replaced(
    preset: str, tmp_path: Path, scripted_api: StartServer
) -> None:
    """The seed's own example (Day 9): the model read `title = "Hello"` / `count = 1`; the user
    changes the title in the editor; the model's `count = 1` -> `count = 2` lands on the text as
    it is now, and `title = "Hi"` stays."""
    root = tmp_path / "project"
    root.mkdir()
    app = root / "app.py"
    app.write_text('title = "Hello"\ncount = 1\n')
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "app.py"})),
            reply("Checking.", tool_use("run_command", {"command": "touch checked.txt"})),
            reply("Now the count.", edit("app.py", "count = 1", "count = 2")),
            reply(
                "Done.",
                expect={"last_tool_result_contains": "Replaced (starting at line 2)."},
            ),
        )
    )
    async with kesi_client(preset, [root], env=api_env(api), init_options=ACCEPT) as client:
        client.open(app)

        def type_then_deny(params: object) -> str:
            client.type_text(app, '"Hello"', '"Hi"')  # while KeSi waits for an answer
            return "Deny"

        client.answer_prompt = type_then_deny
        done = await client.run("kesi.ask", {"prompt": "set count to 2"})
        assert done["status"] == "done"
        assert client.buffer(app).text == 'title = "Hi"\ncount = 2\n'
        await until(lambda: app.read_text() == 'title = "Hi"\ncount = 2\n')


async def test_ticking_one_of_two_hunks_in_the_preview_lands_only_that_one(
    tmp_path: Path, scripted_api: StartServer
) -> None:
    """VS Code's Refactor Preview (approvals "ask"): each hunk is its own annotated change; the
    user ticks the second only. That hunk lands and is kept; the model is told exactly what
    landed; the other one never touched the file."""
    root, calc = calc_project(tmp_path)
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
            reply("Both.", tool_use("write_file", {"file_path": "calc.py", "content": FIXED})),
            reply(
                "Only sub then.",
                expect={
                    "last_tool_result_contains": "The user applied only part of your change to "
                    "calc.py"
                },
            ),
        )
    )
    async with kesi_client("vscode", [root], env=api_env(api)) as client:
        client.open(calc)
        seen: list[dict[str, str]] = []

        def tick_the_second(edit: types.WorkspaceEdit) -> set[str]:
            notes = edit.change_annotations or {}
            seen.append({key: note.label for key, note in notes.items()})
            return {"kesi.review.2"}

        client.answer_preview = tick_the_second
        done = await client.run("kesi.ask", {"prompt": "fix both"})
        assert done["status"] == "done"
        assert seen == [
            {
                "kesi.review.1": "KeSi: write_file calc.py — change 1 of 2 (line 2)",
                "kesi.review.2": "KeSi: write_file calc.py — change 2 of 2 (line 6)",
            }
        ]
        only_sub = CALC.replace("sub(a, b):\n    return a + b", "sub(a, b):\n    return a - b")
        assert client.buffer(calc).text == only_sub
        await until(lambda: calc.read_text() == only_sub)
        listing = await client.command("kesi.changes", {})
        assert states(listing) == {"calc.py": ["kept"]}
        assert kesi_diagnostics(client, calc) == []  # kept: nothing pending to mark


async def test_a_per_hunk_review_lands_the_hunks_the_user_accepted(
    tmp_path: Path, scripted_api: StartServer
) -> None:
    """Our clients' review (Neovim's review tab) answers with the text the user accepted when
    they rejected some hunks: that text lands, is kept, and the model is told exactly that."""
    root, calc = calc_project(tmp_path)
    only_add = CALC.replace("return a - b", "return a + b")
    api = scripted_api(
        script(
            reply("Reading.", tool_use("read_file", {"file_path": "calc.py"})),
            reply("Both.", tool_use("write_file", {"file_path": "calc.py", "content": FIXED})),
            reply(
                "Only add then.",
                expect={"last_tool_result_contains": "The user applied only part of your change"},
            ),
        )
    )
    async with kesi_client("neovim+kesi", [root], env=api_env(api)) as client:
        client.open(calc)
        client.answer_review = lambda params: {"decision": "accept", "after": only_add}
        done = await client.run("kesi.ask", {"prompt": "fix both"})
        assert done["status"] == "done"
        assert client.buffer(calc).text == only_add
        await until(lambda: calc.read_text() == only_add)
        listing = await client.command("kesi.changes", {})
        assert states(listing) == {"calc.py": ["kept"]}
