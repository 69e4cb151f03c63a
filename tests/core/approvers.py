"""Small scripted approvers for tests: the human at the keyboard, replaced by a list."""

from __future__ import annotations

from collections.abc import Iterable

from kesi_lsp.core.approval import Choice, CommandRequest, EditRequest


class Recording:
    """Remembers every question it was asked."""

    def __init__(self) -> None:
        self.commands: list[CommandRequest] = []
        self.edits: list[EditRequest] = []

    @property
    def questions(self) -> int:
        return len(self.commands) + len(self.edits)


class AlwaysAllow(Recording):
    """Says yes to everything (once, unless told to grant for the session)."""

    def __init__(self, choice: Choice = Choice.ALLOW_ONCE) -> None:
        super().__init__()
        self.choice = choice

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.commands.append(request)
        return self.choice

    async def approve_edit(self, request: EditRequest) -> Choice:
        self.edits.append(request)
        return self.choice


class AlwaysDeny(Recording):
    """Says no to everything."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.commands.append(request)
        return Choice.DENY

    async def approve_edit(self, request: EditRequest) -> Choice:
        self.edits.append(request)
        return Choice.DENY


class Scripted(Recording):
    """Answers from a script, in order; a question past the end of the script is denied and
    counted in `unexpected`, so a test can tell it was asked more than it planned."""

    def __init__(self, answers: Iterable[Choice]) -> None:
        super().__init__()
        self.answers = list(answers)
        self.unexpected = 0

    def _next(self) -> Choice:
        if not self.answers:
            self.unexpected += 1
            return Choice.DENY
        return self.answers.pop(0)

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.commands.append(request)
        return self._next()

    async def approve_edit(self, request: EditRequest) -> Choice:
        self.edits.append(request)
        return self._next()


class Raising(Recording):
    """A broken UI: every question raises."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        self.commands.append(request)
        raise RuntimeError("the editor went away")

    async def approve_edit(self, request: EditRequest) -> Choice:
        self.edits.append(request)
        raise RuntimeError("the editor went away")
