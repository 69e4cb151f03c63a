"""Edits never fight the disk: what a command or the editor's own save did to a file counts.

Three ways an edit could go wrong behind the user's back, each over the real wire with the
real model loop (scripted Messages API):

- a command changed a file that is open and clean in an editor that does not reload it
  (Neovim without 'autoread'): an edit to the old buffer, once saved, would undo the
  command's change, so it is refused and the model is told to have the file reloaded;
- the editor reformats on save (VS Code's save participants): the edit landed, in the
  editor's shape, and the model must read the file again before overwriting it;
- the editor's own preview cannot carry a change (no CreateFile): the user is asked with a
  prompt instead of the file being written unreviewed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.lsp.documents import BufferState, DiskTexts
from kesi_lsp.scripted_api import Step, reply, script, tool_use
from tests.lsp.clients import ALLOW_ONCE, DENY, Editor, kesi_client
from tests.lsp.conftest import BUGGY, FIXED, AgentCommand
from tests.lsp.helpers import api_env, result_text, tool_results
from tests.lsp.reviews import EDIT, answer, outcomes, tick_first_hunk
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

RENAME = "sed -i 's/def add/def add_numbers/' calc.py"
RENAMED = BUGGY.replace("def add", "def add_numbers")
MOVED = "changed on disk since the editor loaded it"
UNSAVED = "Files with unsaved changes in the editor"
FIX = {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"}


def read_run_edit_refused(command: str, refusal: str) -> list[Step]:
    """The model reads calc.py, runs `command` (which changes it on disk), edits it, and is
    told the edit was refused with `refusal`."""
    return [
        reply(tool_use("read_file", {"file_path": "calc.py"})),
        reply(tool_use("run_command", {"command": command})),
        reply(tool_use("edit_file", FIX), expect={"last_tool_result_is_error": False}),
        reply(
            "calc.py changed on disk; it needs the user.",
            expect={
                "last_tool_result_contains": f"Not applied: calc.py {refusal}",
                "last_tool_result_is_error": True,
            },
        ),
    ]


@pytest.mark.parametrize("preset", ["neovim", "neovim+kesi", "vscode"])
async def test_an_edit_never_undoes_a_commands_change_the_editor_did_not_reload(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    """The agent runs `sed -i` on a file open and clean in the editor, which keeps showing
    the old text; its edit is refused (nothing reviewed, applied or saved), the command's
    change on disk survives, and once the user reloads the buffer the edit goes through."""
    api = scripted_api(
        script(
            *read_run_edit_refused(RENAME, MOVED),
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(
                tool_use("edit_file", FIX),
                expect={"last_tool_result_contains": "def add_numbers"},
            ),
            reply("Fixed.", expect={"last_tool_result_contains": "Replaced"}),
        )
    )
    calc = project / "calc.py"
    async with kesi_client(preset, [project], env=api_env(api)) as client:
        answer(client, accept=True)
        client.open(calc)
        done = await client.run("kesi.ask", {"prompt": "rename add, then fix it"})
        assert done["status"] == "done" and done["edits"] == []
        # The command's change is on disk; the editor's buffer is untouched and still clean.
        assert calc.read_text() == RENAMED
        assert client.buffer(calc).text == BUGGY and not client.buffer(calc).dirty
        assert client.buffer(calc).undo == [] and not client.applied and not client.saves
        assert len(client.prompts) == 1 and RENAME in client.prompts[0].message  # no review
        assert not client.reviews
        # An outdated buffer is not "unsaved changes" (that would be false).
        for request in api.requests[:4]:
            assert UNSAVED not in request.body["system"][-1]["text"]

        client.reload(calc)  # the user answers the model: `:edit!`
        done = await client.run("kesi.ask", {"prompt": "reloaded, go on"})
        assert done["status"] == "done" and done["edits"] == ["calc.py"]
        assert calc.read_text() == FIXED.replace("def add", "def add_numbers")
        assert client.buffer(calc).text == calc.read_text()


CONFLICT = "changed on disk (a command may have changed it) while the editor holds unsaved"
APPEND = "printf 'X = 1\\n' >> calc.py"


@pytest.mark.parametrize("preset", ["neovim", "vscode"])
async def test_an_edit_never_saves_over_a_disk_a_command_changed_under_unsaved_typing(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    """The user has typed in calc.py without saving; a command appends to the file on disk.
    Saving an edit would overwrite one side, so it is refused: the user's typing stays in the
    buffer, the command's line on disk, and the model is told to have the user save or
    revert first."""
    api = scripted_api(script(*read_run_edit_refused(APPEND, CONFLICT)))
    calc = project / "calc.py"
    mine = BUGGY.replace("def add", "def add  # mine\ndef add")
    async with kesi_client(preset, [project], env=api_env(api)) as client:
        answer(client, accept=True)
        client.open(calc)
        client.type_text(calc, "def add", "def add  # mine\ndef add")
        done = await client.run("kesi.ask", {"prompt": "append, then fix"})
        assert done["status"] == "done" and done["edits"] == []
        assert calc.read_text() == BUGGY + "X = 1\n", "the command's change is on disk"
        assert client.buffer(calc).text == mine and client.buffer(calc).dirty
        assert not client.applied and not client.saves and not client.reviews


def _strip_trailing_spaces(text: str) -> str:
    return re.sub(r"[ \t]+$", "", text, flags=re.MULTILINE)


async def test_format_on_save_counts_as_applied_and_demands_a_fresh_read(
    project: Path, scripted_api: StartServer
) -> None:
    """VS Code trims trailing whitespace when saving the edit: the run reports it applied,
    the disk and buffer hold the trimmed text, and the model hears the file was reformatted
    (so write_file without a fresh read_file is refused)."""
    sloppy = {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b   "}
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(tool_use("edit_file", sloppy)),
            reply(
                tool_use("write_file", {"file_path": "calc.py", "content": "x = 1\n"}),
                expect={
                    "last_tool_result_contains": "The editor reformatted calc.py when saving it",
                    "last_tool_result_is_error": False,
                },
            ),
            reply(
                "I will read it first.",
                expect={"last_tool_result_contains": "read the current content with read_file"},
            ),
        )
    )
    calc = project / "calc.py"
    async with kesi_client("vscode+kesi", [project], env=api_env(api)) as client:
        answer(client, accept=True)
        client.reshape_on_save = _strip_trailing_spaces
        client.open(calc)
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        assert done["status"] == "done" and done["edits"] == ["calc.py"]
        assert calc.read_text() == FIXED == client.buffer(calc).text
        assert not client.buffer(calc).dirty and len(client.saves) == 1
        ends = client.stream(done["runId"], "toolEnd")
        assert [end["tool"] for end in ends] == ["read_file", "edit_file", "write_file"]
        assert not ends[1]["isError"] and ends[2]["isError"]
    result = api.requests[2].body["messages"][-1]["content"][0]
    assert result["content"].startswith("Replaced (starting at line 2). The editor reformatted")


@pytest.mark.parametrize("accept", [False, True], ids=["deny", "allow"])
async def test_a_new_file_the_preview_cannot_show_is_asked_about_first(
    accept: bool, project: Path, scripted_api: StartServer
) -> None:
    """An editor with the annotated preview but no CreateFile: the new file would be written
    straight to disk, unseen; the user is asked with the diff first, and a Deny leaves no file."""
    content = "X = 1\n"
    refused = "the user refused to modify this file"
    api = scripted_api(
        script(
            reply(tool_use("write_file", {"file_path": "pkg/new.py", "content": content})),
            reply(
                "Done." if accept else "Understood.",
                expect={"last_tool_result_is_error": not accept}
                | ({} if accept else {"last_tool_result_contains": refused}),
            ),
        )
    )
    new = project / "pkg" / "new.py"
    async with kesi_client("annotations-no-create", [project], env=api_env(api)) as client:
        client.answer_prompt = lambda params: ALLOW_ONCE if accept else DENY
        client.answer_preview = lambda edit: True  # the preview must not be the only review
        done = await client.run("kesi.ask", {"prompt": "create pkg/new.py"})
        assert done["status"] == "done"
        assert len(client.prompts) == 1
        assert "pkg/new.py" in client.prompts[0].message
        assert "+X = 1" in client.prompts[0].message
        assert not client.applied  # no CreateFile was sent to a client without it
        if accept:
            assert new.read_text() == content and done["edits"] == ["pkg/new.py"]
        else:
            assert not new.exists() and not new.parent.exists()
            assert done["edits"] == []


async def test_disk_texts_tell_an_outdated_buffer_from_a_conflicted_one(tmp_path: Path) -> None:
    """The states behind both refusals: a clean buffer the disk moved away from is outdated
    (a reload fixes it); typing into it, or a disk change under unsaved typing, is a conflict
    (only the user can choose); buffer and disk agreeing again ends either."""
    path = tmp_path / "calc.py"
    path.write_text(BUGGY)
    buffer = {"text": BUGGY}
    disk = DiskTexts()
    disk.buffer_text = lambda p: buffer["text"] if p == path else None
    await disk.refresh([path])
    path.write_text(RENAMED)  # a command
    await disk.refresh([path])
    assert disk.state(path) is BufferState.OUTDATED and disk.loaded(path) == BUGGY
    buffer["text"] = BUGGY + "# mine\n"  # the user types into the outdated buffer
    disk.settle(path)
    assert disk.state(path) is BufferState.CONFLICTED and disk.loaded(path) is None
    buffer["text"] = RENAMED  # the user reverts from disk
    disk.settle(path)
    assert disk.state(path) is BufferState.CLEAN
    buffer["text"] = RENAMED + "# mine\n"  # unsaved typing, then a command
    path.write_text(FIXED)
    await disk.refresh([path])
    assert disk.state(path) is BufferState.CONFLICTED
    path.write_text(buffer["text"])  # the user saves: buffer and disk agree
    await disk.refresh([path])
    assert disk.state(path) is BufferState.CLEAN


async def test_part_of_a_change_kept_in_the_preview_is_saved_and_told_to_the_model(
    project: Path, scripted_api: StartServer
) -> None:
    """In VS Code's Refactor Preview the user ticks one of two hunks: that part is saved, the
    run lists the file, the stream shows the diff that landed, and the model reads a diff
    from its version to the saved one (so it does not believe its whole change is there)."""
    calc = project / "calc.py"
    calc.write_text("one\ntwo\nthree\n")
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(tool_use("write_file", {"file_path": "calc.py", "content": "ONE\ntwo\nTHREE\n"})),
            reply(
                "You kept ONE only.",
                expect={
                    "last_tool_result_contains": "applied only part of your change to calc.py",
                    "last_tool_result_is_error": False,
                },
            ),
        )
    )

    async with kesi_client("vscode+kesi", [project], env=api_env(api)) as client:
        client.answer_preview = tick_first_hunk
        done = await client.run("kesi.ask", {"prompt": "shout"})
        assert done["status"] == "done" and done["edits"] == ["calc.py"]
        assert calc.read_text() == "ONE\ntwo\nthree\n" == client.buffer(calc).text
        (landed,) = client.stream(done["runId"], "edit")
        assert "+ONE" in landed["diff"] and "THREE" not in landed["diff"]
    told = result_text(tool_results(api.requests[2])[-1])
    assert "    -THREE\n    +three" in told and "Read it again" in told


async def edit_with_save_hook(
    client: Editor, calc: Path, before_save: Callable[[Path], bool]
) -> dict[str, Any]:
    """The user accepts the scripted agent's edit of calc.py; `before_save` runs when the
    editor is asked to save it. Returns the run's end, after checking the edit failed."""
    answer(client, accept=True)
    client.open(calc)
    client.before_save = before_save
    done = await client.run("kesi.ask", {"prompt": "fix add"})
    assert outcomes(client, done["runId"])[-1].startswith("failed:")
    return done


async def test_an_edit_the_editor_could_not_save_is_never_saved_over_a_newer_disk(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """Another program writes calc.py just as the editor saves KeSi's edit; the editor
    refuses ("the file on disk is newer"). KeSi must not then write the file itself: the
    other program's text stays on disk, the edit stays unsaved in the buffer, the run says
    it was not saved."""
    calc = project / "calc.py"
    theirs = "y = 3\n"

    def newer_on_disk(path: Path) -> bool:
        path.write_text(theirs)
        return False

    async with kesi_client("vscode+kesi", [project], server=scripted_agent(EDIT)) as client:
        done = await edit_with_save_hook(client, calc, newer_on_disk)
        assert calc.read_text() == theirs
        assert client.buffer(calc).text == FIXED and client.buffer(calc).dirty
        assert done["edits"] == []


async def test_a_disk_change_during_the_review_is_caught_before_the_edit_lands(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """While the diff waits for the user, a command elsewhere rewrites calc.py; the clean
    buffer still shows the old text. Accepting must not put the edit into that outdated
    buffer: it is refused before anything is applied."""
    calc = project / "calc.py"

    def change_disk_then_accept(params: object) -> str:
        calc.write_text(RENAMED)
        return "accept"

    async with kesi_client("neovim+kesi", [project], server=scripted_agent(EDIT)) as client:
        client.open(calc)
        client.answer_review = change_disk_then_accept
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        result = outcomes(client, done["runId"])[-1]
        assert result.startswith(f"failed: Not applied: calc.py {MOVED}")
        assert not client.applied and not client.saves
        assert client.buffer(calc).text == BUGGY and calc.read_text() == RENAMED


SHOUTED = "ONE  \ntwo\nTHREE\n"


async def test_part_kept_in_the_preview_then_reformatted_on_save_is_told_as_it_landed(
    project: Path, scripted_api: StartServer
) -> None:
    """Both at once: the user keeps one hunk, the editor trims it on save. The model's diff
    and the stream's edit show the trimmed text, and both sentences reach the model."""
    calc = project / "calc.py"
    calc.write_text("one\ntwo\nthree\n")
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(tool_use("write_file", {"file_path": "calc.py", "content": SHOUTED})),
            reply("Noted.", expect={"last_tool_result_is_error": False}),
        )
    )
    async with kesi_client("vscode+kesi", [project], env=api_env(api)) as client:
        client.answer_preview = tick_first_hunk
        client.reshape_on_save = _strip_trailing_spaces
        done = await client.run("kesi.ask", {"prompt": "shout"})
        assert done["edits"] == ["calc.py"]
        assert calc.read_text() == "ONE\ntwo\nthree\n" == client.buffer(calc).text
        (landed,) = client.stream(done["runId"], "edit")
        assert "+ONE\n" in landed["diff"]
    told = result_text(tool_results(api.requests[2])[-1])
    assert "    -ONE  \n    +ONE\n" in told and "    -THREE\n    +three" in told
    assert "applied only part" in told and "reformatted calc.py" in told


async def test_the_users_own_save_then_typing_is_not_a_conflict(tmp_path: Path) -> None:
    """The editor saves, the user types before the server re-read the disk: that is unsaved
    typing, not someone else's change (no refusal of the agent's next edit)."""
    path = tmp_path / "calc.py"
    path.write_text(BUGGY)
    buffer = {"text": BUGGY}
    disk = DiskTexts()
    disk.buffer_text = lambda p: buffer["text"] if p == path else None
    await disk.refresh([path])
    path.write_text(FIXED)  # the user's save (buffer held FIXED) ...
    buffer["text"] = FIXED + "# typing\n"  # ... and typing before didSave's read lands
    await disk.refresh([path], written_by_editor=True)
    assert disk.state(path) is BufferState.UNSAVED
    assert disk.differs(path, buffer["text"]), "the typing is unsaved"


async def test_an_undo_before_the_save_is_not_taken_for_a_reformat(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """The user takes the edit back (reverts the buffer) just as the editor saves it: disk
    and buffer agree, on the old text. That is not the edit landing in a new shape: the run
    must not report it applied."""
    calc = project / "calc.py"

    def revert_then_save(path: Path) -> bool:
        client.reload(path)  # back to what the disk holds: the text before the edit
        return True

    async with kesi_client("vscode+kesi", [project], server=scripted_agent(EDIT)) as client:
        done = await edit_with_save_hook(client, calc, revert_then_save)
        assert done["edits"] == []
        assert calc.read_text() == BUGGY == client.buffer(calc).text
