"""After a sandboxed command: say which hosts the proxy refused, and (mode `ask`) ask the user
once per host whether to widen the allow-list (design §2.13).

The tool result ends with one line per refused host ("KeSi's sandbox refused network access
to example.org (not in kesi.sandboxNetworkAllow)."), then what the user decided, in words the
model can act on: allowed for this session or always (run the command again), or not (do not
try again). A host the user refused once this session is not asked about again; a host a
deny pattern names, or one refused for its address, is never asked about: no answer lifts
those. "Allow always" also grants the session, and shows the user the rule to add to their
user settings (the server cannot write an editor's settings file).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.audit import audit_network_grant
from kesi_lsp.core.events import Notice
from kesi_lsp.core.network.proxy import ChannelLimits, Refusal
from kesi_lsp.core.network.words import refused_line, why

if TYPE_CHECKING:  # the tools' context loads the gate's package, which loads the classifier
    from kesi_lsp.core.tools.context import ToolContext

_TOLD = {
    Choice.ALLOW_SESSION: "network.told.session",
    Choice.ALLOW_ALWAYS: "network.told.always",
    Choice.DENY: "network.told.denied",
}


def rule_to_add(host: str, allow: Sequence[str], locale: Locale) -> str:
    """The user-settings rule that allows `host` always, shown whole (the list as it would be)."""
    patterns = json.dumps([*allow, host] if host not in allow else list(allow))
    return text("network.rule_to_add", locale, host=host, patterns=patterns)


async def widened(
    refusals: Sequence[Refusal], ctx: ToolContext, limits: ChannelLimits, command: str
) -> str:
    """The lines to append to `command`'s result: the refused hosts and the decisions, each
    also recorded in the audit log (`_record`)."""
    if not refusals:
        return ""
    session = ctx.gate.session
    settings, locale = session.settings, session.settings.locale
    lines = [refused_line(r, limits, locale) for r in refusals]
    for refusal in refusals:
        host = refusal.host
        decided: tuple[bool, str, Choice | None]
        if refusal.why != "unlisted" or settings.sandbox_network == "allowList":
            decided = (False, "sandbox", None)
            if refusal.why == "unlisted":
                lines.append(text("network.allow_list_hint", locale, host=host))
        elif host in session.grants.hosts:
            continue  # allowed meanwhile (another command's answer)
        elif host in session.grants.hosts_refused:
            decided = (False, "refused_before", Choice.DENY)
            lines.append(text("network.told.refused_before", locale, host=host))
        else:
            choice = await ctx.gate.authorize_host(host)
            decided = (choice is not Choice.DENY, "user", choice)
            lines.append(text(_TOLD[choice], locale, host=host))
            if choice is Choice.ALLOW_ALWAYS:
                with contextlib.suppress(Exception):  # a broken sink must not lose the answer
                    ctx.emit(Notice("info", rule_to_add(host, settings.network_allow, locale)))
        _record(ctx, refusal, limits, command, decided)
    return "\n".join(lines)


def _record(
    ctx: ToolContext,
    refusal: Refusal,
    limits: ChannelLimits,
    command: str,
    decided: tuple[bool, str, Choice | None],
) -> None:
    """The refusal's record in the audit log: `sandbox` (the proxy's settings and checks
    refused it), `user` (asked now, with the answer) or `refused_before` (asked earlier)."""
    allowed, by, choice = decided
    audit_network_grant(
        ctx,
        refusal.host,
        allowed=allowed,
        decided_by=by,
        answer=choice.value if choice is not None else None,
        reason=why(refusal, limits, ctx.locale),
        command=command,
    )
