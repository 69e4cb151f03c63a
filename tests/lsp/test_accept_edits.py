"""`kesi.approvals = "acceptEdits"` over the real wire: what a Helix user (no prompts) notices.

Without the setting Helix cannot say yes, so every edit is refused. With it, file edits land
through `workspace/applyEdit` (versioned, so the editor can undo them) and on disk, the run says
once that edits are not reviewed, and everything else stays: a stale buffer is still refused
(nothing the user typed is lost), and a command that needs a yes is still refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import Editor, kesi_client
from tests.lsp.conftest import BUGGY, FIXED, AgentCommand
from tests.lsp.helpers import PYTEST, TEST_CALC, api_env, fix_this_args
from tests.lsp.reviews import EDIT, LABEL, outcomes, type_while_held
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

ACCEPT = {"approvals": "acceptEdits"}
NOTICE = (
    "Edits: applied without asking (kesi.approvals is acceptEdits). KeSi's file edits land in "
    "the editor as they are made; review them there and undo what you do not want. Commands "
    "still need your approval as before."
)
NOTICE_ZH = (
    "改檔：不先問，直接套用（kesi.approvals 是 acceptEdits）。KeSi 改的檔案會直接出現在"
    "編輯器裡，請在那裡檢查，不要的就復原。指令還是跟以前一樣要經過你同意。"
)
EDIT_CALC = tool_use(
    "edit_file", {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"}
)
REFUSED_EDIT = "the user refused to modify this file"
REFUSED_COMMAND = "the user refused to run this command"


@pytest.fixture
def failing_project(project: Path) -> Path:
    (project / "test_calc.py").write_text(TEST_CALC, encoding="utf-8")
    return project


def applied_versions(client: Editor) -> list[int | None]:
    """The document version each applied edit was pinned to (None: not a versioned edit)."""
    return [
        change.text_document.version
        for params in client.applied
        for change in params.edit.document_changes or []
        if isinstance(change, types.TextDocumentEdit)
    ]


@pytest.mark.parametrize(
    "init", [None, {"approvals": "acceptedits"}], ids=["default", "misspelled"]
)
async def test_helix_without_accept_edits_refuses_the_edit(
    init: dict[str, Any] | None, failing_project: Path, scripted_api: StartServer
) -> None:
    """ "ask" is the default, and a misspelled value is reported and falls back to it."""
    api = scripted_api(
        script(
            reply(tool_use("read_file", {"file_path": "calc.py"})),
            reply(EDIT_CALC),
            reply("I could not change it.", expect={"last_tool_result_contains": REFUSED_EDIT}),
        )
    )
    calc = failing_project / "calc.py"
    async with kesi_client(
        "helix", [failing_project], env=api_env(api), init_options=init
    ) as client:
        client.open(calc)
        done = await client.run("kesi.fixThis", fix_this_args(failing_project))
        assert done["status"] == "done" and done["edits"] == []
        assert calc.read_text() == BUGGY and client.buffer(calc).text == BUGGY
        assert not client.applied
        assert not any("applied without asking" in line for line in client.log_lines())
        warnings = client.shown(types.MessageType.Warning)
        assert any("cannot show KeSi's permission prompts" in w for w in warnings)
        assert 'set kesi.approvals to "acceptEdits"' in warnings[-1]  # the way out
        if init is not None:
            assert warnings[0].startswith("KeSi setting kesi.approvals: expected")
            assert warnings[0].endswith('got "acceptedits"; using "ask".')


async def test_helix_with_accept_edits_applies_the_fix_and_still_refuses_commands(
    failing_project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            reply("Let me read it.", tool_use("read_file", {"file_path": "calc.py"})),
            reply("It subtracts.", EDIT_CALC),
            reply(
                "Now the test.",
                tool_use("run_command", {"command": PYTEST}),
                expect={"last_tool_result_is_error": False},
            ),
            reply(
                "Fixed add; I could not run the tests.",
                expect={"last_tool_result_contains": REFUSED_COMMAND},
            ),
            reply("Nothing else to do."),
        )
    )
    calc = failing_project / "calc.py"
    async with kesi_client(
        "helix", [failing_project], env=api_env(api), init_options=ACCEPT
    ) as client:
        client.open(calc)
        done = await client.run("kesi.fixThis", fix_this_args(failing_project))
        assert done["status"] == "done" and done["edits"] == ["calc.py"]
        # Through the editor, pinned to the buffer's version (undoable), then saved.
        assert [p.label for p in client.applied] == [LABEL]
        assert applied_versions(client) == [1]
        assert client.buffer(calc).text == FIXED and calc.read_text() == FIXED
        lines = client.log_lines()
        assert f"  ({NOTICE})" in lines
        assert lines.index(f"  ({NOTICE})") < lines.index("KeSi > Let me read it.")
        # The command needed a yes that Helix cannot give: refused, and the user is told why.
        (warning,) = client.shown(types.MessageType.Warning)
        assert warning == (
            "This editor cannot show KeSi's permission prompts (window/showMessageRequest), so "
            "KeSi denies every command that needs your approval. File edits still land without "
            "asking (kesi.approvals is acceptEdits)."
        )
        again = await client.run("kesi.ask", {"prompt": "anything else?"})
        assert again["status"] == "done"
        assert client.log_lines().count(f"  ({NOTICE})") == 1  # once per folder, not per run


async def test_helix_accept_edits_never_overwrites_what_the_user_typed(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """I4 holds without a review: typing after the read makes the edit stale, and refused."""
    calc = project / "calc.py"
    steps = [EDIT[0], {"do": "wait_file", "path": ".go"}, EDIT[1]]
    init = {**ACCEPT, "locale": "zh-TW"}
    async with kesi_client(
        "helix", [project], server=scripted_agent(steps), init_options=init
    ) as client:
        client.open(calc)
        started = await client.command("kesi.ask", {"prompt": "fix add"})
        result = await type_while_held(client, calc, started["runId"], project)
        assert result.startswith("failed: 沒有套用：你讀過 calc.py 之後，它在編輯器裡又被改過")
        assert "請重新讀取檔案" in result
        mine = BUGGY.replace("return a - b", "return a - b  # mine")
        assert client.buffer(calc).text == mine and calc.read_text() == BUGGY
        assert not client.applied
        assert f"  （{NOTICE_ZH}）" in client.log_lines()


async def test_helix_accept_edits_catches_a_keystroke_racing_the_apply(
    project: Path, scripted_agent: AgentCommand
) -> None:
    calc = project / "calc.py"
    async with kesi_client(
        "helix", [project], server=scripted_agent(EDIT), init_options=ACCEPT
    ) as client:
        client.open(calc)
        client.before_apply = lambda params: client.type_text(calc, "def add", "def plus")
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        assert outcomes(client, done["runId"])[-1].startswith(
            "failed: Not applied: calc.py changed in the editor"
        )
        assert client.buffer(calc).text == BUGGY.replace("def add", "def plus")
        assert calc.read_text() == BUGGY


@pytest.mark.parametrize("preset", ["vscode", "neovim", "neovim+kesi"])
async def test_no_review_is_shown_in_editors_that_could_ask(
    preset: str, project: Path, scripted_agent: AgentCommand
) -> None:
    """No preview, prompt or review request: the edit lands, and the run says so."""
    calc = project / "calc.py"
    async with kesi_client(
        preset, [project], server=scripted_agent(EDIT), init_options=ACCEPT
    ) as client:
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        assert outcomes(client, done["runId"])[-1] == "applied once"
        assert not client.prompts and not client.reviews
        notes = [n for p in client.applied for n in (p.edit.change_annotations or {}).values()]
        assert not any(note.needs_confirmation for note in notes)
        assert calc.read_text() == FIXED
        if preset.endswith("+kesi"):
            notices = [(n["notice"], n["text"]) for n in client.stream(done["runId"], "notice")]
            assert [kind for kind, _ in notices] == ["workspace", "sandbox", "approvals"]
            assert notices[2][1] == NOTICE
        else:
            assert client.log_lines().count(f"  ({NOTICE})") == 1
