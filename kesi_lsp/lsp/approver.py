"""The person at the editor, as the core's `Approver`: prompts and edit reviews (§2.6, §2.7).

Commands are asked with `window/showMessageRequest`; an edit is reviewed with our clients'
`kesi/reviewEdit` when they announce it, else with the same prompt showing the diff (the
editor's own preview is the third way, but it is part of applying the edit: see `delivery`).
The question and its three buttons speak the session's locale: Day 14's
「放行嗎？」 answered 「不要」, 「這次」 or 「這個 session 都好」 under zh-TW, `Deny`, `Allow once`,
`Allow for this session` in English, **Deny first**, so an editor that pre-selects the first
button (eglot's minibuffer, where RET takes it) defaults to no. The answer is matched against
the titles this very prompt offered. Anything else (a dismissed prompt, an unknown title, an
error, a client without the method such as Helix, a client that went away) is a deny: the gate
fails closed, exactly like the seed's 「沒有人可以問，自動拒絕」.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcMethodNotFound

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    Allowed,
    Choice,
    CommandRequest,
    EditRequest,
    HostRequest,
    ServersRequest,
)
from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.contract import (
    Decision,
    ReviewAction,
    ReviewEditAnswer,
    ReviewEditParams,
    ShapeError,
    read,
)
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.wire import ClientGoneError, Wire, plain_json_converter

log = logging.getLogger(__name__)

MAX_DIFF_LINES = 12
MAX_DIFF_CHARS = 960

ANSWERS: Final = (
    ("permissions.answer.deny", Choice.DENY),
    ("permissions.answer.once", Choice.ALLOW_ONCE),
    ("permissions.answer.session", Choice.ALLOW_SESSION),
)
"""The prompt's buttons in the order shown: the safe one first (design §2.6)."""

HOST_ANSWERS: Final = (
    ("permissions.answer.deny", Choice.DENY),
    ("permissions.answer.session", Choice.ALLOW_SESSION),
    ("network.answer.always", Choice.ALLOW_ALWAYS),
)
"""The buttons of the question to widen the sandbox's network (a host the proxy refused):
no, for this session, always; the safe one first here too."""

SERVERS_ANSWERS: Final = (
    ("permissions.answer.deny", Choice.DENY),
    ("mcp.workspace.answer.start", Choice.ALLOW_ALWAYS),
)
"""The buttons of the question about a folder's `.mcp.json`: no, or start them for this
folder (both remembered, `core.mcp.workspace`); the safe one first."""


def actions(locale: Locale, answers: tuple[tuple[str, Choice], ...] = ANSWERS) -> dict[str, Choice]:
    """The prompt's buttons in `locale`, title -> what it means, in the order shown."""
    return {text(key, locale): choice for key, choice in answers}


REVIEW_EDIT: Final = "kesi/reviewEdit"
_DECISIONS: Final[dict[Decision, Choice]] = {
    "accept": Choice.ALLOW_ONCE,
    "acceptSession": Choice.ALLOW_SESSION,
    "reject": Choice.DENY,
}
_DECISION_OF: Final = {choice: decision for decision, choice in _DECISIONS.items()}


def truncate_diff(diff: str, locale: Locale) -> str:
    """At most MAX_DIFF_LINES lines / MAX_DIFF_CHARS characters of `diff`, saying what is cut."""
    lines = diff.splitlines()
    kept: list[str] = []
    size = 0
    for line in lines:
        if len(kept) == MAX_DIFF_LINES or size + len(line) > MAX_DIFF_CHARS:
            break
        kept.append(line)
        size += len(line) + 1
    if len(kept) < len(lines):
        kept.append(text("lsp.prompt.diff_cut", locale, count=len(lines) - len(kept)))
    return "\n".join(kept)


@dataclass
class PromptSupport:
    """Whether this client can show prompts; learnt from its first MethodNotFound."""

    unavailable: bool = False


class Prompter:
    """Ask one three-way question through `window/showMessageRequest`."""

    def __init__(
        self,
        wire: Wire,
        support: PromptSupport,
        locale: Locale,
        *,
        edits_accepted: bool = False,
        list_answers: bool = False,
    ) -> None:
        self._wire = wire
        self._support = support
        self.locale = locale
        # A client that knows nothing of KeSi may not show the buttons with the question
        # (lsp-mode lists a prompt's choices only after TAB): the question names them.
        self._list_answers = list_answers
        # Under `approvals: "acceptEdits"` only commands are asked: the notice must not tell
        # the user that edits are refused, nor to turn on what is already on.
        self._unavailable = (
            "lsp.prompts_unavailable_commands" if edits_accepted else "lsp.prompts_unavailable"
        )

    def _question(self, titles: list[str]) -> str:
        """Day 14's question, with the answers named when the client may not show them."""
        if not self._list_answers:
            return text("lsp.prompt.question", self.locale)
        listed = text("lsp.prompt.answer_separator", self.locale).join(titles)
        return text("lsp.prompt.question_listed", self.locale, answers=listed)

    async def ask(self, message: str, answers: tuple[tuple[str, Choice], ...] = ANSWERS) -> Choice:
        """Ask; `answers` other than the command prompt's carry their question in `message`."""
        if self._support.unavailable:
            return Choice.DENY
        offered = actions(self.locale, answers)
        if answers is ANSWERS:
            message = f"{message}\n{self._question(list(offered))}"
        params = types.ShowMessageRequestParams(
            type=types.MessageType.Warning,
            message=message,
            actions=[types.MessageActionItem(title=title) for title in offered],
        )
        try:
            answer = await self._wire.request(types.WINDOW_SHOW_MESSAGE_REQUEST, params)
        except JsonRpcMethodNotFound:
            self._support.unavailable = True
            self._wire.notify(
                types.WINDOW_SHOW_MESSAGE,
                types.ShowMessageParams(
                    type=types.MessageType.Warning,
                    message=text(self._unavailable, self.locale),
                ),
            )
            return Choice.DENY
        except Exception as exc:  # an error answer, a lost client: every failure is a deny
            log.info("permission prompt failed, denying: %s", exc)
            return Choice.DENY
        title = getattr(answer, "title", None)
        return offered.get(title, Choice.DENY) if isinstance(title, str) else Choice.DENY


def command_scope(locale: Locale) -> str:
    """What "Allow for this session" covers for a command: this exact command."""
    answer = text("permissions.answer.session", locale)
    return text("lsp.prompt.scope_command", locale, answer=answer)


def edit_scope(request: EditRequest, locale: Locale) -> str:
    """What "Allow for this session" covers for an edit: this one file."""
    answer = text("permissions.answer.session", locale)
    return text("lsp.prompt.scope_edit", locale, answer=answer, path=request.rel)


MAX_ARGUMENTS = 1500


def command_message(request: CommandRequest, locale: Locale) -> str:
    """The prompt's text: the command and why the gate asks; for an MCP call (`request.tool`)
    the server, the tool and the arguments (cut at `MAX_ARGUMENTS` characters)."""
    if request.tool is not None:
        shown = request.tool.arguments
        if len(shown) > MAX_ARGUMENTS:
            shown = shown[: MAX_ARGUMENTS - 1] + "…"
        fields = {"server": request.tool.server, "tool": request.tool.tool, "arguments": shown}
        return text("lsp.prompt.mcp", locale, **fields)
    message = text("lsp.prompt.command", locale, command=request.command)
    if request.reason:
        message += "\n" + text("lsp.prompt.reason", locale, reason=request.reason)
    return f"{message}\n{command_scope(locale)}"


def edit_title(request: EditRequest, locale: Locale) -> str:
    """`[Permission needed] edit_file changes file: calc.py` (Day 14's 「{tool} 修改檔案：…」)."""
    key = "lsp.prompt.create" if request.before is None else "lsp.prompt.edit"
    return text(key, locale, tool=request.tool, path=request.rel)


def edit_message(request: EditRequest, locale: Locale) -> str:
    """The diff, cut short, then what is asked (file and action) last, right above the
    question: a small prompt area shows a long message's end (Emacs' minibuffer cuts it from
    the top; Vim scrolls its top away), so the end is what must say what is asked."""
    head = edit_title(request, locale)
    # No scope line here: a small prompt area (Emacs' minibuffer) needs its rows for the diff;
    # our clients' reviews carry it (`kesi/reviewEdit.scope`).
    return f"{truncate_diff(request.diff, locale)}\n\n{head}"


def diff_log_lines(request: EditRequest, locale: Locale) -> list[str] | None:
    """The whole diff for the log, when the prompt shows only part of it (the prompt says
    the rest is there); None when the prompt shows it all."""
    if truncate_diff(request.diff, locale).splitlines() == request.diff.splitlines():
        return None
    return [edit_title(request, locale), *request.diff.splitlines()]


@dataclass(frozen=True)
class ReviewWords:
    """The words of an edit review: `title` (what changes), `proposal` (the name of the
    proposed text, a diff tab's title), `question` (Day 14's 「放行嗎？」), `scope` (what "Allow
    for this session" covers) and `actions`, the buttons in order."""

    title: str
    proposal: str
    question: str
    scope: str
    actions: list[ReviewAction]


def review_words(request: EditRequest, locale: Locale) -> ReviewWords:
    """The words of an edit review, rendered for every client that reviews an edit itself,
    **Deny first** in every locale (`不要` / `這次` / `這個 session 都好` under zh-TW, the
    command prompt's very words), each button with the `decision` it answers."""
    return ReviewWords(
        title=edit_title(request, locale),
        proposal=text("lsp.review.proposal", locale, path=request.rel),
        question=text("lsp.prompt.question", locale),
        scope=edit_scope(request, locale),
        actions=[
            ReviewAction(title=text(key, locale), decision=_DECISION_OF[choice])
            for key, choice in ANSWERS
        ],
    )


def _decision(answer: object) -> ReviewEditAnswer | None:
    """The client's answer, or None when it is not one (junk, a wrong type: a no)."""
    if not isinstance(answer, Mapping):
        return None
    try:
        return read(answer, ReviewEditAnswer, plain_json_converter())
    except ShapeError as exc:
        log.info("kesi/reviewEdit answered %r, treating as reject: %s", answer, exc)
        return None


class LspApprover:
    """The core's `Approver` for one run, answered by the person at the editor."""

    def __init__(
        self, prompter: Prompter, wire: Wire, features: ClientFeatures, run_id: str
    ) -> None:
        self._prompter = prompter
        self._wire = wire
        self._features = features
        self._run_id = run_id

    async def approve_command(self, request: CommandRequest) -> Choice:
        return await self._prompter.ask(command_message(request, self._prompter.locale))

    async def approve_host(self, request: HostRequest) -> Choice:
        """Whether sandboxed commands may reach a host the proxy refused (`core.network`)."""
        message = text("network.prompt", self._prompter.locale, host=request.host)
        return await self._prompter.ask(message, HOST_ANSWERS)

    async def approve_servers(self, request: ServersRequest) -> Choice:
        """Whether the MCP servers of a folder's `.mcp.json` may start (`core.mcp.workspace`)."""
        locale = self._prompter.locale
        programs = text("common.list_sep", locale).join(request.programs)
        message = text("mcp.workspace.question", locale, folder=request.folder, programs=programs)
        return await self._prompter.ask(message, SERVERS_ANSWERS)

    async def approve_edit(self, request: EditRequest) -> Choice | Allowed:
        """`kesi/reviewEdit` for clients that announce it, else the prompt with the diff.

        A review may answer `{decision: "accept", after}`: the user kept only some hunks
        (Neovim's review tab), and `after` is the text they accepted."""
        if not self._features.review_edit:
            locale = self._prompter.locale
            if (whole := diff_log_lines(request, locale)) is not None:
                self._wire.notify(
                    types.WINDOW_LOG_MESSAGE,
                    types.LogMessageParams(type=types.MessageType.Info, message="\n".join(whole)),
                )
            return await self._prompter.ask(edit_message(request, locale))
        words = review_words(request, self._prompter.locale)
        params = ReviewEditParams(
            run_id=self._run_id,
            uri=path_to_uri(request.path),
            path=request.rel,
            before=request.before,
            after=request.after,
            diff=request.diff,
            title=words.title,
            proposal=words.proposal,
            question=words.question,
            scope=words.scope,
            actions=words.actions,
        )
        try:
            answer = _decision(await self._wire.request(REVIEW_EDIT, params))
        except (ClientGoneError, JsonRpcException) as exc:
            log.info("kesi/reviewEdit failed, treating as reject: %s", exc)
            return Choice.DENY
        if answer is None:
            return Choice.DENY
        choice, after = _DECISIONS[answer.decision], answer.after
        if choice is not Choice.DENY and after is not None and after != request.after:
            if after == (request.before or ""):
                return Choice.DENY  # every hunk rejected: that is a no
            return Allowed(choice, after=after)
        return choice
