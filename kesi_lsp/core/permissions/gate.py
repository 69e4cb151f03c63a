"""The permission gate itself (`PermissionGate`); the package's docstring says what it decides and
in which order. Apart from the package so that importing a name of the package (the grants'
listing, which the server needs at start) does not load the classifier."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kesi_lsp.catalog import text
from kesi_lsp.core.approval import (
    Allowed,
    Answer,
    Approver,
    Choice,
    CommandRequest,
    HostRequest,
    Refused,
    ToolCall,
    consult,
    consult_host,
)
from kesi_lsp.core.permissions.listing import rule_fields
from kesi_lsp.core.permissions.policy import CommandVerdict
from kesi_lsp.core.permissions.rules import apply_rules, command_texts, edit_decision, tool_decision
from kesi_lsp.core.permissions.shellwords import parse
from kesi_lsp.core.sandbox.env import home_from
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.permission_rules import Rule


@dataclass(frozen=True)
class CommandDecision:
    """How a command was decided: the classifier's `verdict` and `reason`, who decided (`by`:
    the classifier, the red line, a rule, a session grant, the user) and the user's `answer`
    (`once`, `session`, `deny`) when asked."""

    verdict: str
    reason: str
    by: str
    answer: str | None = None


def _package() -> Any:
    """The package, through which the gate classifies: its `classify` is the one patch point
    (a test wraps it to see where it runs)."""
    return sys.modules["kesi_lsp.core.permissions"]


class PermissionGate:
    """Decide, per session, whether a command may run and whether a write needs review.

    `home` is the user's home directory (for the red line's `~`, `$HOME` and the real home
    path); the host passes `home_from(environ)`. Without it, the password database is used.
    `secrets_masked`: commands run in a sandbox that hides the ignore list's secrets (design
    §3), so programs that read folders holding them may run without asking. The user's
    permission rules (`rules.py`) come with the session's settings.
    """

    def __init__(
        self,
        session: Session,
        approver: Approver,
        *,
        home: Path | None = None,
        secrets_masked: bool = False,
    ) -> None:
        self._session = session
        self._approver = approver
        self._home = home.resolve() if home is not None else home_from({})
        self._masked = secrets_masked
        self._runs_as: dict[str, str] = {}
        self._decisions: dict[str, CommandDecision] = {}
        self._tool_decisions: dict[str, CommandDecision] = {}

    @property
    def session(self) -> Session:
        """The session whose grants this gate reads and writes."""
        return self._session

    def classify(self, command: str) -> CommandVerdict:
        """The policy's verdict for `command` in this session's workspace and locale, with the
        user's permission rules applied. The text is read once (`shellwords.parse`) and that
        reading is what the red line, the policy and the rules all judge."""
        settings, root = self._session.settings, self._session.root
        locale = settings.locale
        script = parse(command)
        verdict = _package().classify(
            command, root, self._home, locale=locale, secrets_masked=self._masked, script=script
        )
        verdict = apply_rules(
            verdict,
            command,
            root,
            self._home,
            rules=settings.permissions,
            locale=locale,
            secrets_masked=self._masked,
            script=script,
        )
        if verdict.command is not None:
            self._runs_as[command] = verdict.command
        return verdict

    def runs_as(self, command: str) -> str:
        """The text that actually runs for an authorized `command` (git with its configured
        programs turned off, sed with `--sandbox`, when the policy allowed it without asking)."""
        return self._runs_as.pop(command, command)

    async def authorize_command(self, command: str) -> Answer:
        """Whether `command` may run: `Allowed`, or `Refused` with the refusal for the model.
        How it was decided is kept for the audit log (`decision`)."""
        locale = self._session.settings.locale
        verdict = await asyncio.to_thread(self.classify, command)
        if verdict.kind == "deny":
            self._decided(command, verdict, verdict.by)
            return Refused(text("permissions.denied", locale, reason=verdict.reason))
        if verdict.kind == "allow":
            self._decided(command, verdict, verdict.by)
            return Allowed()
        key = command.strip()
        if key in self._session.grants.commands:
            self._decided(command, verdict, "grant", Choice.ALLOW_SESSION.value)
            return Allowed(Choice.ALLOW_SESSION)
        answer = await consult(self._approver, CommandRequest(key, verdict.reason), locale)
        if isinstance(answer, Allowed) and answer.choice is Choice.ALLOW_SESSION:
            self._session.grants.commands.add(key)
        choice = answer.choice if isinstance(answer, Allowed) else Choice.DENY
        self._decided(command, verdict, "user", choice.value)
        return answer

    def _decided(
        self, command: str, verdict: CommandVerdict, by: str, answer: str | None = None
    ) -> None:
        self._decisions[command] = CommandDecision(verdict.kind, verdict.reason, by, answer)

    def decision(self, command: str) -> CommandDecision | None:
        """How the last `authorize_command(command)` was decided (taken: asked once)."""
        return self._decisions.pop(command, None)

    async def authorize_tool(self, server: str, tool: str, shown: str, arguments: object) -> Answer:
        """Whether the MCP call of `tool` on `server` may go ahead: a deny rule refuses, then
        the red line for any command text among the arguments, then an allow rule or a
        session grant lets it go, else the human is asked (server, tool and `shown`, the
        arguments as JSON). Rules match `server:tool` (`mcp:<server>:<tool>` as written).
        How it was decided is kept for the audit log (`tool_decision`)."""
        locale = self._session.settings.locale
        subject = f"{server}:{tool}"
        decided = tool_decision(self._session.settings.permissions, subject)
        if decided is not None and decided.kind == "deny":
            fields = rule_fields(decided, locale)
            self._tool_decided(subject, "deny", fields["pattern"], "rule")
            return Refused(text("permissions.rule_denied_mcp", locale, **fields))
        crossing = await asyncio.to_thread(self._red_line_in, arguments)
        if crossing is not None:
            self._tool_decided(subject, "deny", crossing, "red_line")
            return Refused(text("permissions.denied", locale, reason=crossing))
        if decided is not None and decided.kind == "allow":
            self._tool_decided(subject, "allow", rule_fields(decided, locale)["pattern"], "rule")
            return Allowed()
        asked = text("audit.reason.mcp", locale)
        if subject in self._session.grants.tools:
            self._tool_decided(subject, "ask", asked, "grant", Choice.ALLOW_SESSION.value)
            return Allowed(Choice.ALLOW_SESSION)
        question = text(
            "permissions.mcp_question", locale, server=server, tool=tool, arguments=shown
        )
        request = CommandRequest(f"mcp:{subject}", question, ToolCall(server, tool, shown))
        answer = await consult(self._approver, request, locale)
        if isinstance(answer, Allowed) and answer.choice is Choice.ALLOW_SESSION:
            self._session.grants.tools.add(subject)
        choice = answer.choice if isinstance(answer, Allowed) else Choice.DENY
        self._tool_decided(subject, "ask", asked, "user", choice.value)
        if isinstance(answer, Refused):
            return Refused(text("permissions.refused_mcp", locale))
        return answer

    def _tool_decided(
        self, subject: str, verdict: str, reason: str, by: str, answer: str | None = None
    ) -> None:
        self._tool_decisions[subject] = CommandDecision(verdict, reason, by, answer)

    def tool_decision(self, server: str, tool: str) -> CommandDecision | None:
        """How the last `authorize_tool(server, tool, ...)` was decided (taken: asked once)."""
        return self._tool_decisions.pop(f"{server}:{tool}", None)

    def _red_line_in(self, arguments: object) -> str | None:
        """The red line's reason for the first command-like text among the arguments (a key
        naming a command, a script or a shell), else None."""
        for value in command_texts(arguments):
            verdict = _package().classify(
                value, self._session.root, self._home, locale=self._session.settings.locale
            )
            if verdict.kind == "deny":
                return str(verdict.reason)
        return None

    async def authorize_host(self, host: str) -> Choice:
        """Ask whether sandboxed commands may reach `host` (refused by the proxy in mode `ask`):
        DENY, ALLOW_SESSION or ALLOW_ALWAYS; the answer is remembered as the session's grant
        (or refusal, which is not asked again) at once."""
        grants = self._session.grants
        choice = await consult_host(self._approver, HostRequest(host))
        if choice is Choice.DENY:
            grants.hosts_refused.add(host)
        else:
            grants.hosts.add(host)
            grants.hosts_refused.discard(host)
        return choice

    def needs_review(self, path: Path) -> bool:
        """A write to `path` is shown to the user unless the file was granted for the session,
        an edit rule allows it, or the user chose `approvals: "acceptEdits"` (the edit still
        lands through the editor, where it can be reviewed and undone; commands never get such
        a pass). An edit rule that asks is reviewed in every mode."""
        rule = self._edit_rule(path)
        if rule is not None and rule.kind != "deny":
            return rule.kind == "ask"
        if self._session.settings.approvals == "acceptEdits":
            return False
        return path.resolve() not in self._session.grants.files

    def edit_decider(self, path: Path) -> str:
        """Who lets a write to `path` land without a review (`needs_review` is False): a rule,
        the `acceptEdits` setting or a session grant (the audit log)."""
        rule = self._edit_rule(path)
        if rule is not None and rule.kind == "allow":
            return "rule"
        return "accept_edits" if self._session.settings.approvals == "acceptEdits" else "grant"

    def edit_refusal(self, path: Path) -> str | None:
        """The refusal for the model when an edit rule denies changing `path`, else None."""
        rule = self._edit_rule(path)
        if rule is None or rule.kind != "deny":
            return None
        locale = self._session.settings.locale
        return text("permissions.rule_denied_edit", locale, **rule_fields(rule, locale))

    def _edit_rule(self, path: Path) -> Rule | None:
        try:
            relative = path.resolve().relative_to(self._session.root).as_posix()
        except ValueError:
            return None
        return edit_decision(self._session.settings.permissions, relative)

    def remember_file(self, path: Path) -> None:
        """Record "allow for this session" for writes to `path` (resolved)."""
        self._session.grants.files.add(path.resolve())
