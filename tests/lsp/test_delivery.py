"""The edit flow of design §2.7 over the real wire, in every editor's shape.

These tests run the real language server with a scripted agent (tests/lsp/scripted_agent.py)
so each step of review → apply → save → verify, and each race with the user's typing, happens
exactly where the test wants it. The end-to-end tests with the model loop are in test_e2e.py.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.lsp.apply_edit import SETTLE_SECONDS
from tests.lsp.clients import ALLOW_ONCE, EditorRefusalError, kesi_client
from tests.lsp.conftest import BUGGY, FIXED, AgentCommand
from tests.lsp.reviews import (
    EDIT,
    LABEL,
    REVIEW_PATHS,
    answer,
    assert_review_path,
    outcomes,
    run_accepting,
    tick_first_hunk,
    type_while_held,
)

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("preset", list(REVIEW_PATHS))
@pytest.mark.parametrize("opened", [False, True], ids=["closed", "open"])
async def test_accepted_edit_lands_everywhere(
    preset: str, opened: bool, project: Path, scripted_agent: AgentCommand
) -> None:
    calc = project / "calc.py"
    async with kesi_client(preset, [project], server=scripted_agent(EDIT)) as client:
        done = await run_accepting(client, calc if opened else None, "fix add")
        assert_review_path(client, REVIEW_PATHS[preset])
        if REVIEW_PATHS[preset] == "none":  # Helix: no prompts, so every edit is denied
            assert outcomes(client, done["runId"])[-1] == "rejected"
            assert calc.read_text() == BUGGY
            assert any("cannot show KeSi's permission prompts" in m for m in client.shown())
            return
        assert outcomes(client, done["runId"])[-1] == "applied once"
        # I1: disk == buffer == intent, and the run says which file it changed.
        assert calc.read_text() == FIXED
        assert client.buffer(calc).text == FIXED
        if client.preset.name.endswith("+kesi"):  # kesi/saveDocuments: the editor saved it
            assert not client.buffer(calc).dirty and client.saves
        else:  # the server wrote the same bytes itself
            assert not client.saves
        assert done["status"] == "done" and done["edits"] == ["calc.py"]
        # I2: the change came through workspace/applyEdit, on the editor's undo stack.
        assert [p.label for p in client.applied] == [LABEL]
        assert client.buffer(calc).undo[-1] == (LABEL, BUGGY)


@pytest.mark.parametrize("preset", [p for p, path in REVIEW_PATHS.items() if path != "none"])
async def test_rejected_edit_changes_nothing(
    preset: str, project: Path, scripted_agent: AgentCommand
) -> None:
    calc = project / "calc.py"
    async with kesi_client(preset, [project], server=scripted_agent(EDIT)) as client:
        answer(client, accept=False)
        client.open(calc)
        client.type_text(calc, "def add", "def add")  # an open buffer, version 2
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        assert_review_path(client, REVIEW_PATHS[preset])
        # I3: nothing changed anywhere, and the model was told.
        assert outcomes(client, done["runId"])[-1] == "rejected"
        assert calc.read_text() == BUGGY and client.buffer(calc).text == BUGGY
        assert client.buffer(calc).undo == []
        assert done["status"] == "done" and done["edits"] == []


async def test_unsaved_buffer_is_what_the_agent_reads_and_edits(
    project: Path, scripted_agent: AgentCommand
) -> None:
    calc = project / "calc.py"
    async with kesi_client("neovim+kesi", [project], server=scripted_agent(EDIT)) as client:
        answer(client, accept=True)
        client.open(calc)
        client.type_text(calc, "def add(a, b):", "def add(a, b):  # unsaved note")
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        read, edit = outcomes(client, done["runId"])
        assert read == "read version 2, unsaved True"
        assert edit == "applied once"
        intended = FIXED.replace("def add(a, b):", "def add(a, b):  # unsaved note")
        assert client.reviews[0]["before"] == BUGGY.replace(
            "def add(a, b):", "def add(a, b):  # unsaved note"
        )
        # The save step writes the whole buffer: disk == buffer == intent.
        assert calc.read_text() == intended == client.buffer(calc).text
        assert client.saves == [[calc.resolve().as_uri()]]
        # The edit was versioned against the buffer the user had.
        change = client.applied[0].edit.document_changes[0]
        assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 2


@pytest.mark.parametrize("preset", ["vscode", "neovim+kesi", "emacs"])
async def test_user_typing_between_read_and_write_is_never_overwritten(
    preset: str, project: Path, scripted_agent: AgentCommand
) -> None:
    """I4: the user types after the agent read the file; the edit is refused as stale."""
    calc = project / "calc.py"
    steps = [EDIT[0], {"do": "wait_file", "path": ".go"}, EDIT[1]]
    async with kesi_client(preset, [project], server=scripted_agent(steps)) as client:
        answer(client, accept=True)
        client.open(calc)
        started = await client.command("kesi.ask", {"prompt": "fix add"})
        result = await type_while_held(client, calc, started["runId"], project)
        assert result.startswith("failed: Not applied: calc.py changed in the editor")
        assert "Read the file again" in result
        mine = BUGGY.replace("return a - b", "return a - b  # mine")
        assert client.buffer(calc).text == mine and calc.read_text() == BUGGY
        assert not client.applied and not client.prompts and not client.reviews


@pytest.mark.parametrize("preset", ["neovim", "neovim+kesi"])
async def test_user_typing_during_review_is_never_overwritten(
    preset: str, project: Path, scripted_agent: AgentCommand
) -> None:
    """I4 while the review is open: the user accepts, but typed in the file meanwhile."""
    calc = project / "calc.py"

    def type_then_accept(params: Any) -> str:
        client.type_text(calc, "def add", "def plus")
        return ALLOW_ONCE if isinstance(params, types.ShowMessageRequestParams) else "accept"

    async with kesi_client(preset, [project], server=scripted_agent(EDIT)) as client:
        client.answer_prompt = type_then_accept
        client.answer_review = type_then_accept
        client.open(calc)
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        result = outcomes(client, done["runId"])[-1]
        assert result.startswith("failed: Not applied: calc.py changed in the editor while")
        assert client.buffer(calc).text == BUGGY.replace("def add", "def plus")
        assert calc.read_text() == BUGGY and not client.applied


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("vscode", "failed: Not applied: calc.py changed in the editor"),  # rejects the version
        ("neovim", "failed: The edit to calc.py did not land as intended"),  # "applied": true
        ("emacs", "failed: Not applied: calc.py changed in the editor"),  # answers an error
    ],
)
async def test_keystroke_racing_the_apply_is_caught(
    preset: str, expected: str, project: Path, scripted_agent: AgentCommand
) -> None:
    """The user types just as the versioned edit arrives: each editor refuses differently,
    and KeSi notices every time (Neovim even answers `applied: true`)."""
    calc = project / "calc.py"
    async with kesi_client(preset, [project], server=scripted_agent(EDIT)) as client:
        answer(client, accept=True)
        client.open(calc)
        client.before_apply = lambda params: client.type_text(calc, "def add", "def plus")
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        assert outcomes(client, done["runId"])[-1].startswith(expected)
        assert client.buffer(calc).text == BUGGY.replace("def add", "def plus")
        assert calc.read_text() == BUGGY


async def test_partial_acceptance_in_the_preview_is_reported(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """VS Code's preview lets the user tick some hunks: what they kept is their answer, saved
    like any accepted edit (the model hears what landed: tests/lsp/test_disk_truth.py)."""
    calc = project / "calc.py"
    calc.write_text("one\ntwo\nthree\n")
    steps = [
        {"do": "read", "path": "calc.py"},
        {"do": "write", "path": "calc.py", "content": "ONE\ntwo\nTHREE\n"},
    ]

    async with kesi_client("vscode", [project], server=scripted_agent(steps)) as client:
        client.answer_preview = tick_first_hunk
        started = time.monotonic()
        done = await client.run("kesi.ask", {"prompt": "shout"})
        took = time.monotonic() - started
        assert outcomes(client, done["runId"])[-1] == "applied once"
        assert client.buffer(calc).text == "ONE\ntwo\nthree\n" == calc.read_text()
        assert done["edits"] == ["calc.py"]
    # The user's answer is in once their buffer stays as they left it (0.3 s); the run does not
    # wait out the whole time an edit may take to show up.
    assert took < SETTLE_SECONDS, f"the run waited {took:.2f} s after a partial acceptance"


@pytest.mark.parametrize("preset", ["vscode", "neovim", "emacs", "neovim+kesi"])
async def test_new_file(preset: str, project: Path, scripted_agent: AgentCommand) -> None:
    """A new file holds exactly what was written (Neovim opens it as one empty line)."""
    steps = [{"do": "write", "path": "pkg/new.py", "content": "X = 1\n\nY = 2\n"}]
    async with kesi_client(preset, [project], server=scripted_agent(steps)) as client:
        answer(client, accept=True)
        done = await client.run("kesi.ask", {"prompt": "create"})
        assert outcomes(client, done["runId"])[-1] == "applied once"
        assert (project / "pkg" / "new.py").read_text() == "X = 1\n\nY = 2\n"
        creates = [
            c
            for p in client.applied
            for c in p.edit.document_changes or []
            if isinstance(c, types.CreateFile)
        ]
        if preset == "emacs":  # no resource operations: the server writes the file itself
            assert not client.applied
        else:
            assert len(creates) == 1 and creates[0].uri.endswith("/pkg/new.py")
            assert client.buffer(project / "pkg" / "new.py").text == "X = 1\n\nY = 2\n"


APPEND = [
    {"do": "read", "path": "calc.py"},
    {"do": "edit", "path": "calc.py", "old": "a - b\n", "new": "a - b\n\n\ndef sub(a, b):\n"},
    {
        "do": "edit",
        "path": "calc.py",
        "old": "sub(a, b):\n",
        "new": "sub(a, b):\n    return a - b\n",
    },
]
APPENDED = BUGGY + "\n\ndef sub(a, b):\n    return a - b\n"


@pytest.mark.parametrize("preset", [p for p, path in REVIEW_PATHS.items() if path != "none"])
@pytest.mark.parametrize("opened", [False, True], ids=["closed", "open"])
async def test_appending_to_the_end_of_a_file(
    preset: str, opened: bool, project: Path, scripted_agent: AgentCommand
) -> None:
    """Lines added after the last line land once, without a stray empty line (I1), in every
    editor's way of applying edits (Neovim's included: see kesi_lsp/testing/vim.py)."""
    calc = project / "calc.py"
    async with kesi_client(preset, [project], server=scripted_agent(APPEND)) as client:
        done = await run_accepting(client, calc if opened else None, "add sub")
        assert outcomes(client, done["runId"])[1:] == ["applied once", "applied once"]
        assert calc.read_text() == APPENDED == client.buffer(calc).text
        assert [undo[0] for undo in client.buffer(calc).undo] == [LABEL, LABEL]


NETWORK = {"mode": "ask", "allow": [], "deny": []}
GRANTED = {
    "commands": [],
    "files": ["calc.py"],
    "hosts": [],
    "approvals": "ask",
    "rules": [],
    "network": NETWORK,
    "lines": ["Allowed commands: (none)", "Allowed files: calc.py"],
    "tools": [],
}
NO_GRANTS = {
    "commands": [],
    "hosts": [],
    "network": NETWORK,
    "files": [],
    "approvals": "ask",
    "rules": [],
    "lines": ["Allowed commands: (none)", "Allowed files: (none)"],
    "tools": [],
}
REVOKED = "(all grants for this session have been revoked)"


@pytest.mark.parametrize("preset", ["neovim+kesi", "emacs"])
async def test_session_grant_skips_the_next_review(
    preset: str, project: Path, scripted_agent: AgentCommand
) -> None:
    """A session grant is seen and revoked with the seed's `/permissions` and `/revoke`; an
    editor without a KeSi client is shown their words, ours renders the result itself."""
    steps = [*EDIT, {"do": "edit", "path": "calc.py", "old": "add", "new": "plus"}]
    async with kesi_client(preset, [project], server=scripted_agent(steps)) as client:
        answer(client, accept=True, session=True)
        done = await client.run("kesi.ask", {"prompt": "fix add"})
        assert outcomes(client, done["runId"])[1:] == ["applied session", "applied once"]
        assert len(client.reviews + client.prompts) == 1  # the second edit was not asked
        assert (project / "calc.py").read_text() == FIXED.replace("add", "plus")
        assert await client.command("kesi.permissions", {}) == GRANTED
        assert await client.command("kesi.revoke", {}) == {"message": REVOKED}
        assert await client.command("kesi.permissions", {}) == NO_GRANTS
        # Each run's end line (this editor does not stream the run), then the command answers.
        info = [m for m in client.shown(types.MessageType.Info) if not m.startswith("KeSi: ")]
        if preset == "emacs":
            assert info == ["\n".join(GRANTED["lines"]), REVOKED, "\n".join(NO_GRANTS["lines"])]
        else:
            assert info == []


async def test_permissions_speak_the_seed_in_traditional_chinese(
    project: Path, scripted_agent: AgentCommand
) -> None:
    init = {"locale": "zh-TW"}
    async with kesi_client(
        "helix", [project], server=scripted_agent([]), init_options=init
    ) as client:
        listed = await client.command("kesi.permissions", {})
        assert listed["lines"] == ["已放行的指令：（無）", "已放行的檔案：（無）"]
        revoked = await client.command("kesi.revoke", {})
        assert revoked == {"message": "（這個 session 的授權已全部收回）"}
        assert client.shown() == ["\n".join(listed["lines"]), revoked["message"]]


async def test_permissions_say_when_every_edit_is_allowed(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """Under acceptEdits no file grant is needed: /permissions says so instead of implying
    that edits still ask."""
    init = {"approvals": "acceptEdits"}
    async with kesi_client(
        "helix", [project], server=scripted_agent([]), init_options=init
    ) as client:
        listed = await client.command("kesi.permissions", {})
    assert listed["approvals"] == "acceptEdits"
    assert listed["lines"] == [
        "Allowed commands: (none)",
        "Allowed files: (none)",
        "Every file edit is allowed without asking (kesi.approvals is acceptEdits).",
    ]


@pytest.mark.parametrize("reply_kind", ["dismissed", "error"])
async def test_a_prompt_without_a_yes_is_a_no(
    reply_kind: str, project: Path, scripted_agent: AgentCommand
) -> None:
    """A dismissed prompt (null) and a prompt the editor fails to show both deny (§2.6)."""

    def dismiss_or_fail(params: types.ShowMessageRequestParams) -> str | None:
        if reply_kind == "error":
            raise EditorRefusalError(message="no UI here")
        return None

    steps = [{"do": "command", "command": "touch x"}, *EDIT]
    async with kesi_client("emacs", [project], server=scripted_agent(steps)) as client:
        client.answer_prompt = dismiss_or_fail
        done = await client.run("kesi.ask", {"prompt": "go"})
        command, _, edit = outcomes(client, done["runId"])
        assert command.startswith("refused: Error: the user refused to run this command")
        assert edit == "rejected"
        assert len(client.prompts) == 2 and not client.applied
        assert (project / "calc.py").read_text() == BUGGY
