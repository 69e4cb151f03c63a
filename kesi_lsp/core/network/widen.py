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
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Choice
from kesi_lsp.core.events import EventSink, Notice
from kesi_lsp.core.network.proxy import ChannelLimits, Refusal
from kesi_lsp.core.network.words import refused_line

if TYPE_CHECKING:  # the gate's package loads the classifier, which run_command's module needs
    from kesi_lsp.core.permissions.gate import PermissionGate

_TOLD = {
    Choice.ALLOW_SESSION: "network.told.session",
    Choice.ALLOW_ALWAYS: "network.told.always",
    Choice.DENY: "network.told.denied",
}


Decided = Callable[[str, bool, str, "str | None"], None]
"""The audit log's hook: host, allowed, decided by ("user", "session", "setting", or the
refusal's reason: "denied", "address", "sni", "limit"), and the user's answer when asked."""


def rule_to_add(host: str, allow: Sequence[str], locale: Locale) -> str:
    """The user-settings rule that allows `host` always, shown whole (the list as it would be)."""
    patterns = json.dumps([*allow, host] if host not in allow else list(allow))
    return text("network.rule_to_add", locale, host=host, patterns=patterns)


async def widened(
    refusals: Sequence[Refusal],
    gate: PermissionGate,
    limits: ChannelLimits,
    emit: EventSink,
    decided: Decided | None = None,
) -> str:
    """The lines to append to the command's result: the refused hosts and the decisions;
    each refusal and each answer also goes to `decided` (the audit log)."""
    if not refusals:
        return ""
    session = gate.session
    settings, locale = session.settings, session.settings.locale
    lines = [refused_line(r, limits, locale) for r in refusals]
    record: Decided = decided or (lambda host, allowed, by, answer: None)
    for refusal in refusals:
        host = refusal.host
        if refusal.why != "unlisted":
            record(host, False, refusal.why, None)
        elif settings.sandbox_network == "allowList":
            record(host, False, "setting", None)
            lines.append(text("network.allow_list_hint", locale, host=host))
        elif host in session.grants.hosts:
            continue  # allowed meanwhile (another command's answer)
        elif host in session.grants.hosts_refused:
            record(host, False, "session", None)
            lines.append(text("network.told.refused_before", locale, host=host))
        else:
            choice = await gate.authorize_host(host)
            record(host, choice is not Choice.DENY, "user", choice.value)
            lines.append(text(_TOLD[choice], locale, host=host))
            if choice is Choice.ALLOW_ALWAYS:
                with contextlib.suppress(Exception):  # a broken sink must not lose the answer
                    emit(Notice("info", rule_to_add(host, settings.network_allow, locale)))
    return "\n".join(lines)
