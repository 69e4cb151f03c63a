"""The person at the ACP client, as the core's `Approver` (`session/request_permission`).

The gate's question about a command and the review of an edit both go to the tool call's own
card, and carry its title ("Run pytest -q", "Edit calc.py": CodeCompanion, acpx and the SDK's
example client show only what the request itself says): the command with why the gate asks,
the edit with why it is asked and its `diff`. The options are the seed's
three answers (Day 14), the safe one first: `reject_once` "Deny", `allow_once` "Allow once",
`allow_always` "Allow for this session" (this ACP session's grants, shown and revoked as ever;
never beyond the session). They speak the session's locale; the answer is matched by option id.

A host the sandbox's proxy refused (`core.network`, mode `ask`) is asked on a card of its own
(kind `fetch`): `reject_once` "Deny", `allow_always` "Allow for this session" and "Allow
always" (the latter also shows the user the rule for their settings).

A `cancelled` outcome (the client cancelled the turn), an option KeSi did not offer, an error
answer or a client that went away is a deny: the gate fails closed (seed: 沒有人可以問，自動拒絕).
"""

from __future__ import annotations

import logging
from typing import Final

from acp import RequestError
from acp.helpers import start_tool_call, text_block, tool_content, tool_diff_content
from acp.schema import AllowedOutcome, PermissionOption, ToolCallLocation, ToolCallUpdate
from pydantic import ValidationError

from kesi_lsp.acp.client import AcpClient, ClientGoneError
from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.acp.tool_calls import Call, Calls, title
from kesi_lsp.acp.updates import tool_status
from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import Choice, CommandRequest, EditRequest, HostRequest

log = logging.getLogger(__name__)

REJECT: Final = "reject"
ALLOW_ONCE: Final = "allow-once"
ALLOW_SESSION: Final = "allow-session"
ALLOW_ALWAYS: Final = "allow-always"
CHOICES: Final = {
    REJECT: Choice.DENY,
    ALLOW_ONCE: Choice.ALLOW_ONCE,
    ALLOW_SESSION: Choice.ALLOW_SESSION,
}
HOST_CHOICES: Final = {
    REJECT: Choice.DENY,
    ALLOW_SESSION: Choice.ALLOW_SESSION,
    ALLOW_ALWAYS: Choice.ALLOW_ALWAYS,
}


def options(locale: Locale) -> list[PermissionOption]:
    """The three answers, the safe one first, in the session's words."""
    return [
        PermissionOption(
            option_id=REJECT, name=text("permissions.answer.deny", locale), kind="reject_once"
        ),
        PermissionOption(
            option_id=ALLOW_ONCE, name=text("permissions.answer.once", locale), kind="allow_once"
        ),
        PermissionOption(
            option_id=ALLOW_SESSION,
            name=text("permissions.answer.session", locale),
            kind="allow_always",
        ),
    ]


def host_options(locale: Locale) -> list[PermissionOption]:
    """The answers to widening the network: no, for this session, always."""
    return [
        PermissionOption(
            option_id=REJECT, name=text("permissions.answer.deny", locale), kind="reject_once"
        ),
        PermissionOption(
            option_id=ALLOW_SESSION,
            name=text("permissions.answer.session", locale),
            kind="allow_always",
        ),
        PermissionOption(
            option_id=ALLOW_ALWAYS, name=text("network.answer.always", locale), kind="allow_always"
        ),
    ]


class AcpApprover:
    """The core's `Approver` for one run, answered through the client's permission prompt."""

    def __init__(
        self, client: AcpClient, session: AcpSession, calls: Calls, locale: Locale
    ) -> None:
        self._client = client
        self._session = session
        self._calls = calls
        self._locale = locale

    async def approve_command(self, request: CommandRequest) -> Choice:
        if request.tool is not None:
            return await self._approve_tool(request)
        call = self._calls.open_command(request.command)
        card = self._card(call, "run_command", {"command": request.command})
        reason = text("acp.permission.reason", self._locale, reason=request.reason)
        question = ToolCallUpdate(
            tool_call_id=card,
            title=title("run_command", {"command": request.command}, self._locale),
            kind="execute",
            status="pending",
            content=[tool_content(text_block(reason))] if request.reason else None,
            raw_input={"command": request.command},
        )
        return await self._ask(card, question)

    async def _approve_tool(self, request: CommandRequest) -> Choice:
        """An MCP call: its own card, with the question (server, tool, arguments) in it."""
        assert request.tool is not None
        name = f"mcp__{request.tool.server}__{request.tool.tool}"
        call = self._calls.open_tool(name)
        card = self._card(call, name, {})
        question = ToolCallUpdate(
            tool_call_id=card,
            kind="other",
            status="pending",
            content=[tool_content(text_block(request.reason))],
        )
        return await self._ask(card, question)

    async def approve_edit(self, request: EditRequest) -> Choice:
        call = self._calls.open_edit(request.path)
        card = self._card(call, request.tool, {"file_path": request.rel})
        where = self._session.client_path(request.path)
        why = text("acp.permission.edit_reason", self._locale)
        question = ToolCallUpdate(
            tool_call_id=card,
            title=title(request.tool, {"file_path": request.rel}, self._locale),
            kind="edit",
            status="pending",
            content=[
                tool_content(text_block(why)),
                tool_diff_content(where, request.after, request.before),
            ],
            locations=[ToolCallLocation(path=where)],
        )
        return await self._ask(card, question)

    async def approve_host(self, request: HostRequest) -> Choice:
        """A card of its own asks whether sandboxed commands may reach `request.host`."""
        card = self._card(None, "network", {"host": request.host})
        words = text("network.prompt", self._locale, host=request.host)
        question = ToolCallUpdate(
            tool_call_id=card,
            kind="fetch",
            status="pending",
            content=[tool_content(text_block(words))],
            raw_input={"host": request.host},
        )
        choice = await self._ask(card, question, host_options(self._locale), HOST_CHOICES)
        self._client.update(self._session.id, tool_status(card, "completed"))
        return choice

    def _card(self, call: Call | None, tool: str, tool_input: dict[str, object]) -> str:
        """The id of the card the question is about; one is made if the tool has none."""
        if call is not None:
            return call.id
        made = self._calls.start(self._session, f"ask-{len(self._calls.by_use)}", tool, tool_input)
        self._client.update(self._session.id, start_tool_call(made.id, tool, status="pending"))
        return made.id

    async def _ask(
        self,
        card: str,
        question: ToolCallUpdate,
        offered: list[PermissionOption] | None = None,
        choices: dict[str, Choice] = CHOICES,
    ) -> Choice:
        try:
            answer = await self._client.request_permission(
                self._session.id, question, offered or options(self._locale)
            )
        except (RequestError, ClientGoneError, ValidationError) as exc:
            log.info("session/request_permission failed, denying: %s", exc)
            return Choice.DENY
        outcome = answer.outcome
        choice = (
            choices.get(outcome.option_id, Choice.DENY)
            if isinstance(outcome, AllowedOutcome)
            else Choice.DENY
        )
        if choice is not Choice.DENY:
            self._client.update(self._session.id, tool_status(card, "in_progress"))
        return choice
