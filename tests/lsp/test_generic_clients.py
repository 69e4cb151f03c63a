"""The clients a user already has (lsp-mode, Vim with yegappan/lsp or vim-lsp, Neovim and
eglot without KeSi's package), over the real wire with the scripted Messages API: what they
announce is all the server may rely on (kesi_lsp/testing/generic.py, issue 30).

- none of them hears a `kesi/*` notification (lsp-mode shows a *Warnings* window for each);
- a run starts at once even when the client loses `window/workDoneProgress/create`;
- each run ends with one message on screen: status, verdict, bill (a setting turns it off).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import http_error, reply, script, tool_use
from kesi_lsp.testing.quirks import LOST_CREATE
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
FIXED_WORDS = "Fixed: add now adds."


def fix_script() -> list[dict[str, object]]:
    return script(reply("Reading.", READ), reply("Fixing.", EDIT), reply(FIXED_WORDS))


def kesi_messages(editor: Editor) -> list[str]:
    return [method for method, _ in editor.timeline if method.startswith("kesi/")]


async def fix_run(editor: Editor, project: Path) -> str:
    """`kesi.fixThis` on calc.py; the end-of-run message the user sees."""
    await editor.command("kesi.fixThis", fix_this_args(project))
    return await editor.timeline.wait_shown("KeSi: ", 60)


@pytest.mark.parametrize("preset", GENERIC_PRESETS)
async def test_a_generic_client_hears_nothing_of_kesi_and_sees_the_run_end(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(fix_script())
    # vim-lsp cannot answer a prompt (every answer is null), Helix has none: the README's way
    # is acceptEdits.
    init = {"approvals": "acceptEdits"} if preset in CANNOT_ASK else None
    async with kesi_client(preset, [project], env=api_env(api), init_options=init) as editor:
        editor.answer_prompt = lambda params: ALLOW_ONCE
        editor.open(project / "calc.py")
        end = await fix_run(editor, project)
        assert end.startswith("KeSi: done · unverified · (this run: 3 request(s)"), end
        assert kesi_messages(editor) == []
        assert (project / "calc.py").read_text() == FIXED
        shown_at_end = [m for m in editor.shown() if m.startswith("KeSi: ")]
        assert shown_at_end == [end]  # one message, not one per event


async def test_the_run_end_message_can_be_turned_off(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Nothing to do here.")))
    off = {"runEndMessage": False}
    async with kesi_client("lsp-mode", [project], env=api_env(api), init_options=off) as editor:
        await editor.command("kesi.fixThis", fix_this_args(project))
        # The log closes the run with its bill, after the end message would have been sent.
        await editor.timeline.wait_for(
            lambda m, p: m == types.WINDOW_LOG_MESSAGE and "(this run: 1 request(s)" in p.message
        )
        await editor.command("kesi.changes", {})  # a round trip: the server sent all before
        assert editor.shown()  # what kesi.changes said, after what the run's end said
        assert not [m for m in editor.shown() if m.startswith("KeSi: ")]


async def test_a_streaming_client_gets_no_extra_end_message(
    project: Path, scripted_api: StartServer
) -> None:
    """Our own clients show the end themselves (`kesi/runFinished`'s line)."""
    api = scripted_api(script(reply("Nothing to do here.")))
    async with kesi_client("vscode+kesi", [project], env=api_env(api)) as editor:
        done = await editor.run("kesi.fixThis", fix_this_args(project))
        assert done["status"] == "done"
        assert not [m for m in editor.shown() if m.startswith("KeSi: ")]


async def test_a_failed_run_is_one_message(project: Path, scripted_api: StartServer) -> None:
    api = scripted_api(script(http_error(400, message="the request was malformed")))
    async with kesi_client("yegappan", [project], env=api_env(api)) as editor:
        await editor.command("kesi.fixThis", fix_this_args(project))
        end = await editor.timeline.wait_shown("KeSi stopped", 60)
        assert "the request was malformed" in end, end
        assert len(editor.shown(types.MessageType.Error)) == 1


async def test_a_lost_progress_create_does_not_hold_the_run(
    project: Path, scripted_api: StartServer
) -> None:
    """lsp-mode loses the create now and then: the run goes on at once, and the create is
    withdrawn only when the run is over."""
    api = scripted_api(fix_script())
    async with kesi_client("lsp-mode", [project], env=api_env(api)) as editor:
        editor.answer_prompt = lambda params: ALLOW_ONCE
        editor.open(project / "calc.py")
        await fix_run(editor, project)
        await editor.timeline.wait_for(lambda m, p: m == LOST_CREATE, 30)
        methods = [m for m, _ in editor.timeline]
        assert methods.index(types.WINDOW_WORK_DONE_PROGRESS_CREATE) < methods.index(LOST_CREATE)
        story = [i for i, (m, _) in enumerate(editor.timeline) if m == types.WINDOW_LOG_MESSAGE]
        prompt = methods.index(types.WINDOW_SHOW_MESSAGE_REQUEST)
        assert story and story[0] < methods.index(LOST_CREATE)
        assert prompt < methods.index(LOST_CREATE)  # the review came while the create hung
        assert (project / "calc.py").read_text() == FIXED
        assert BUGGY != FIXED
