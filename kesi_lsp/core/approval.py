"""The approver seam: how the core asks a human "may I?", and the typed answer it gets.

The terminal KeSi called `input()`; here the question is a value handed to whoever hosts the
core (the LSP adapter turns it into `window/showMessageRequest` or `kesi/reviewEdit`, tests
answer from a script). Any failure to get an answer must come back as `Choice.DENY`: the gate
fails closed.

Every question, a command's or an edit's, goes through `consult`, the one place where a
human's `Choice` (or the lack of one) becomes an `Answer`: `Allowed(choice)`, or
`Refused(message)` carrying the seed's refusal for the model. No caller has to remember that a
missing answer, an error or a non-answer means no.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kesi_lsp.catalog import Locale, text


class Choice(enum.Enum):
    """The three answers the seed offers: y = this time, a = this session, N = no."""

    ALLOW_ONCE = "once"
    ALLOW_SESSION = "session"
    DENY = "deny"
    ALLOW_ALWAYS = "always"
    """Only for a host (`HostRequest`): allow it from now on, as a rule in the user's settings."""


@dataclass(frozen=True)
class ToolCall:
    """An MCP tool call to approve: the server, its tool and the arguments (JSON text)."""

    server: str
    tool: str
    arguments: str


@dataclass(frozen=True)
class CommandRequest:
    """A shell command the policy wants a human to approve, and why it asks.

    `tool` is set when what is asked about is an MCP tool call rather than a command
    (`command` is then `mcp:<server>:<tool>`, `reason` the question in words): approvers that
    know it show the server, the tool and the arguments; any other asks as for a command,
    and its answer means the same."""

    command: str
    reason: str
    tool: ToolCall | None = None


@dataclass(frozen=True)
class EditRequest:
    """A reviewed file change: what the user sees before an edit lands.

    `before` is None for a new file. `diff` is a unified diff of before -> after with
    `a/<rel>` and `b/<rel>` headers.
    """

    tool: str
    path: Path
    rel: str
    before: str | None
    after: str
    diff: str


@dataclass(frozen=True)
class HostRequest:
    """A host a sandboxed command was refused (not on the allow-list, mode `ask`): may
    commands reach it for this session, always, or not (`core.network.widen`)?"""

    host: str


class HostApprover(Protocol):
    """An `Approver` that can also ask about a host. One that cannot means no."""

    async def approve_host(self, request: HostRequest) -> Choice:
        """Return DENY, ALLOW_SESSION or ALLOW_ALWAYS for letting commands reach the host."""
        ...


async def consult_host(approver: object, request: HostRequest) -> Choice:
    """Ask `approver` about a host: a cancellation is a `PromptInterrupted`; an approver that
    cannot ask, breaks or answers anything else is a no."""
    ask = getattr(approver, "approve_host", None)
    if ask is None:
        return Choice.DENY
    try:
        with asking():
            choice = await ask(request)
    except Exception:
        return Choice.DENY
    if choice in (Choice.ALLOW_SESSION, Choice.ALLOW_ALWAYS):
        return choice  # type: ignore[no-any-return]
    return Choice.DENY


class Approver(Protocol):
    """Ask a human. Implementations must never raise for a missing or broken UI: deny instead."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        """Return the user's answer for running `request.command`."""
        ...

    async def approve_edit(self, request: EditRequest) -> Choice | Allowed:
        """Return the user's answer for applying the change shown in `request`; an `Allowed`
        with `after` when they accepted only some of its hunks (a per-hunk review)."""
        ...


class DenyAll:
    """The approver of last resort: nobody to ask means no (seed: 沒有人可以問，自動拒絕)."""

    async def approve_command(self, request: CommandRequest) -> Choice:
        return Choice.DENY

    async def approve_edit(self, request: EditRequest) -> Choice:
        return Choice.DENY


class PromptInterrupted(asyncio.CancelledError):
    """The run was cancelled while a human was being asked "may I?".

    Still a cancellation (the run stops exactly as for any other), but the loop answers the
    tool with the seed's own words for it (Day 14: 使用者中斷了授權詢問) instead of "the user
    interrupted this tool": nothing ran, because nobody said yes.
    """


@contextmanager
def asking() -> Iterator[None]:
    """Wrap the wait for a human's answer: a cancellation inside it becomes PromptInterrupted."""
    try:
        yield
    except PromptInterrupted:
        raise
    except asyncio.CancelledError as exc:
        raise PromptInterrupted(*exc.args) from exc


@dataclass(frozen=True)
class Allowed:
    """Yes: `choice` is ALLOW_ONCE (this time, or nothing needed asking) or ALLOW_SESSION.

    `after`, for an edit, is the text the user accepted when they kept only some of its hunks
    in a per-hunk review (design §2.9); None: all of it."""

    choice: Choice = Choice.ALLOW_ONCE
    after: str | None = None


@dataclass(frozen=True)
class Refused:
    """No: `message` is the whole sentence the model receives as the tool's error result, in
    the session's locale (the seed's words: do not send the same request again)."""

    message: str


Answer = Allowed | Refused
Request = CommandRequest | EditRequest

_REFUSALS: dict[type[Request], str] = {  # an MCP call's own refusal: `PermissionGate`
    CommandRequest: "permissions.refused_command",
    EditRequest: "permissions.refused_edit",
}


def refusal(kind: type[Request], locale: Locale) -> Refused:
    """The seed's "no" to a request of `kind`; also for a no given some other way than through
    `consult` (the editor's own preview of an edit), so that it reads exactly the same."""
    return Refused(text(_REFUSALS[kind], locale))


def answer_to(kind: type[Request], choice: object, locale: Locale) -> Answer:
    """What a human's `choice` about a request of `kind` means; anything but a yes is a no."""
    if isinstance(choice, Allowed) and choice.choice is not Choice.DENY:
        return choice
    if isinstance(choice, Choice) and choice is not Choice.DENY:
        return Allowed(choice)
    return refusal(kind, locale)


async def consult(approver: Approver, request: Request, locale: Locale) -> Answer:
    """Ask `approver` about `request`. A cancellation while the human looks is a
    `PromptInterrupted`; an approver that breaks is a no, never a yes."""
    try:
        with asking():
            if isinstance(request, CommandRequest):
                choice: object = await approver.approve_command(request)
            else:
                choice = await approver.approve_edit(request)
    except Exception:
        choice = Choice.DENY
    return answer_to(type(request), choice, locale)
