"""An accepted edit in the clients a user already has leaves no modified buffer and no question
(issue 30, items 4 and 5), over the real wire with the scripted Messages API.

None of lsp-mode, yegappan/lsp, vim-lsp, plain Neovim or plain eglot can be asked to save a
buffer, so a buffer an edit makes modified stays so: with the server's write beside it, the
editor then asks Vim's W12 or Emacs' "changed since visited or saved". What they get instead:

- a file that is not open is written on disk, and no buffer is opened for it;
- an open buffer without the user's own typing is written on disk, and the editor reloads it
  when it next looks at its files ('autoread', auto-revert): no question;
- a buffer holding the user's unsaved typing gets the edit through `workspace/applyEdit` and
  stays unsaved (KeSi never saves the user's typing behind their back), and the model is told;
- vim-lsp edits a buffer in no window without telling the server: the disk path above reaches
  it, and the model is never told "nothing was changed" about a change the editor holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import ALLOW_ONCE, CANNOT_ASK, GENERIC_PRESETS, Editor, kesi_client
from tests.lsp.conftest import BUGGY, FIXED
from tests.lsp.helpers import api_env, fix_this_args
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

READ = tool_use("read_file", {"file_path": "calc.py"})
EDIT = tool_use(
    "edit_file",
    {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
)
TYPED = "# the user's note\n"
TYPED_BUGGY = TYPED + BUGGY


def tool_results(request_body: dict[str, Any]) -> str:
    """The text of the tool results in a request's last (user) message."""
    last = request_body["messages"][-1]
    parts: list[str] = []
    for block in last["content"] if isinstance(last["content"], list) else []:
        if block.get("type") == "tool_result":
            content = block.get("content")
            if isinstance(content, str):
                parts.append(content)
            elif isinstance(content, list):
                parts.extend(c.get("text", "") for c in content if isinstance(c, dict))
    return "\n".join(parts)


def init_for(preset: str) -> dict[str, str] | None:
    """vim-lsp answers every prompt null, Helix has none: the README's way is acceptEdits."""
    return {"approvals": "acceptEdits"} if preset in CANNOT_ASK else None


async def fix_run(editor: Editor, project: Path) -> None:
    editor.answer_prompt = lambda params: ALLOW_ONCE
    await editor.command("kesi.fixThis", fix_this_args(project))
    await editor.timeline.wait_shown("KeSi: ", 60)


@pytest.mark.parametrize("preset", GENERIC_PRESETS)
async def test_an_edit_to_a_file_not_open_opens_no_buffer(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Reading.", READ), reply("Fixing.", EDIT), reply("Fixed.")))
    env = api_env(api)
    async with kesi_client(preset, [project], env=env, init_options=init_for(preset)) as editor:
        await fix_run(editor, project)
        assert (project / "calc.py").read_text() == FIXED
        assert list(editor.buffers) == [], "no buffer was opened (a hidden one in Vim)"
        assert "Nothing was changed" not in tool_results(api.requests[2].body)


@pytest.mark.parametrize("preset", GENERIC_PRESETS)
async def test_an_edit_to_an_open_clean_buffer_is_reloaded_with_no_question(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    again = tool_use(
        "edit_file",
        {
            "file_path": "calc.py",
            "old_string": "def add(a, b):",
            "new_string": "def add(a, b):  # sum",
        },
    )
    api = scripted_api(
        script(
            reply("Reading.", READ), reply("Fixing.", EDIT), reply("Noting.", again), reply("Done.")
        )
    )
    env = api_env(api)
    async with kesi_client(preset, [project], env=env, init_options=init_for(preset)) as editor:
        editor.open(project / "calc.py")
        await fix_run(editor, project)
        # Both edits landed before the editor looked at its files again: the second one on
        # the text the disk holds, not on what the buffer still showed.
        expected = FIXED.replace("def add(a, b):", "def add(a, b):  # sum")
        assert (project / "calc.py").read_text() == expected
        assert editor.buffers.modified() == []
        assert editor.buffers.check_disk() == [], "a question (Vim's W12, Emacs' save check)"
        assert editor.buffer(project / "calc.py").text == expected
        assert editor.buffers.modified() == []
        await editor.sync()
        assert await editor.command("kesi.changes", {}) is not None


@pytest.mark.parametrize("preset", ["lsp-mode", "yegappan", "neovim-plain", "eglot", "helix-plain"])
async def test_an_edit_to_a_buffer_with_unsaved_typing_stays_unsaved_and_the_model_knows(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Reading.", READ), reply("Fixing.", EDIT), reply("Fixed.")))
    env = api_env(api)
    async with kesi_client(preset, [project], env=env, init_options=init_for(preset)) as editor:
        editor.open(project / "calc.py")
        editor.type_text(project / "calc.py", "def add", TYPED + "def add")
        await fix_run(editor, project)
        buffer = editor.buffer(project / "calc.py")
        assert buffer.text == TYPED + FIXED and buffer.dirty
        assert (project / "calc.py").read_text() == BUGGY, "the user's typing was not saved"
        told = tool_results(api.requests[2].body)
        assert "not saved" in told and "calc.py" in told, told
        editor.save(project / "calc.py")  # the user saves when they are ready: no question
        assert editor.buffers.check_disk() == []
        assert (project / "calc.py").read_text() == TYPED + FIXED


async def test_vim_lsp_edits_in_a_hidden_buffer_reach_the_disk_and_the_model_hears_the_truth(
    project: Path, scripted_api: StartServer
) -> None:
    """vim-lsp answers `applied: true` for a buffer in no window and reports no change: the
    edit goes by the disk instead, and the buffer reloads when the user returns to it."""
    api = scripted_api(script(reply("Reading.", READ), reply("Fixing.", EDIT), reply("Fixed.")))
    env = api_env(api)
    async with kesi_client(
        "vim-lsp", [project], env=env, init_options=init_for("vim-lsp")
    ) as editor:
        editor.open(project / "calc.py", hidden=True)
        await fix_run(editor, project)
        told = tool_results(api.requests[2].body)
        assert "Nothing was changed" not in told, told
        assert (project / "calc.py").read_text() == FIXED
        assert editor.buffers.modified() == []
        assert editor.buffers.check_disk() == []
        assert editor.buffer(project / "calc.py").text == FIXED
