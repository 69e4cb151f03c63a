"""The sandboxed agent with the network proxy and a scripted user at the host question: shared
by the network tests of commands and of background tasks."""

from __future__ import annotations

import dataclasses

from kesi_lsp.core.approval import Choice, HostRequest
from kesi_lsp.core.network.access import NetworkAccess
from tests.core.sandbox.agents import Agent, agent
from tests.core.sandbox.conftest import Playground, bubblewrap


class HostAnswers:
    """The user at the prompt: answers host questions from a script, allows every command."""

    def __init__(self, *answers: Choice) -> None:
        self.answers = list(answers)
        self.asked: list[str] = []

    async def approve_command(self, request: object) -> Choice:
        return Choice.ALLOW_ONCE

    async def approve_edit(self, request: object) -> Choice:
        return Choice.ALLOW_ONCE

    async def approve_host(self, request: HostRequest) -> Choice:
        self.asked.append(request.host)
        return self.answers.pop(0) if self.answers else Choice.DENY


def networked(
    playground: Playground,
    network: NetworkAccess,
    answers: HostAnswers | None = None,
    **settings: object,
) -> Agent:
    me = agent(playground, bubblewrap(playground))
    me.ctx.network = network
    me.ctx.session.settings = dataclasses.replace(me.ctx.session.settings, **settings)  # type: ignore[arg-type]
    if answers is not None:
        me.ctx.gate._approver = answers  # the scripted user
    return me
