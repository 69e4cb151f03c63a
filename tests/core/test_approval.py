"""The one approval seam: every human answer, to a command or an edit, becomes a typed Answer."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kesi_lsp.core.approval import (
    Allowed,
    Choice,
    CommandRequest,
    EditRequest,
    PromptInterrupted,
    Refused,
    answer_to,
    consult,
)
from tests.core.approvers import AlwaysAllow, Raising, Scripted

COMMAND = CommandRequest("pytest -q", "pytest is not on the read-only list")
EDIT = EditRequest("edit_file", Path("/ws/a.py"), "a.py", "x = 1\n", "x = 2\n", "-x = 1\n+x = 2\n")
REFUSED_COMMAND = "Error: the user refused to run this command."
REFUSED_EDIT = "Error: the user refused to modify this file."


@pytest.mark.parametrize("choice", [Choice.ALLOW_ONCE, Choice.ALLOW_SESSION])
async def test_a_yes_keeps_how_long_it_holds(choice: Choice) -> None:
    approver = AlwaysAllow(choice)
    assert await consult(approver, COMMAND, "en") == Allowed(choice)
    assert await consult(approver, EDIT, "en") == Allowed(choice)
    assert approver.commands == [COMMAND] and approver.edits == [EDIT]


async def test_a_no_carries_the_seeds_refusal_for_each_kind_of_question() -> None:
    approver = Scripted([Choice.DENY, Choice.DENY, Choice.DENY])
    assert await consult(approver, COMMAND, "en") == Refused(REFUSED_COMMAND)
    assert await consult(approver, EDIT, "en") == Refused(REFUSED_EDIT)
    zh = await consult(approver, EDIT, "zh-TW")
    assert zh == Refused("錯誤：使用者拒絕修改這個檔案。")


async def test_a_broken_approver_is_a_no_never_a_yes() -> None:
    approver = Raising()
    assert await consult(approver, COMMAND, "en") == Refused(REFUSED_COMMAND)
    assert await consult(approver, EDIT, "en") == Refused(REFUSED_EDIT)


def test_anything_but_a_choice_is_a_no() -> None:
    for nonsense in (None, "y", True, "session"):
        assert answer_to(EditRequest, nonsense, "en") == Refused(REFUSED_EDIT)
    assert answer_to(CommandRequest, Choice.ALLOW_ONCE, "en") == Allowed(Choice.ALLOW_ONCE)


class Waiting:
    """A human who never answers: the run is cancelled while they look."""

    def __init__(self) -> None:
        self.asked = asyncio.Event()

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.asked.set()
        await asyncio.Event().wait()
        raise AssertionError("unreachable")

    async def approve_edit(self, request: EditRequest) -> Choice:
        return await self.approve_command(COMMAND)


async def test_a_cancel_while_asking_is_an_interrupted_prompt() -> None:
    for request in (COMMAND, EDIT):
        approver = Waiting()
        task = asyncio.ensure_future(consult(approver, request, "en"))
        await approver.asked.wait()
        task.cancel()
        with pytest.raises(PromptInterrupted):
            await task
