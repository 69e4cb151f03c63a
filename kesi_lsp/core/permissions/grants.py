"""Per-session grants (seed Day 14): exact command strings and resolved file paths.

A grant never widens: `pytest -q` does not grant `pytest -v`, `cd build && rm -rf .` does not
grant `rm -rf . && cd build`, and `src/a.py` does not grant `src/b.py`. Grants live in memory
for the session, survive `/reset`, and are visible and revocable: "a grant list you can't see or
revoke isn't a real grant list". The grants themselves are session state (`Session.grants`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings


@dataclass(frozen=True)
class GrantsView:
    """What `kesi.permissions` returns: granted commands, and files as POSIX paths relative to
    the workspace (absolute when a file is somehow outside it), and hosts sandboxed commands
    may reach (`core.network`), all sorted."""

    commands: list[str]
    files: list[str]
    hosts: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)


def describe_grants(session: Session) -> GrantsView:
    """The session's grants as the user should see them (seed `/permissions`)."""
    files = []
    for path in session.grants.files:
        try:
            files.append(path.relative_to(session.root).as_posix())
        except ValueError:
            files.append(path.as_posix())
    return GrantsView(
        commands=sorted(session.grants.commands),
        files=sorted(files),
        hosts=sorted(session.grants.hosts),
        tools=sorted(f"mcp:{t}" for t in session.grants.tools),
    )


def revoke(session: Session) -> None:
    """Clear every grant of the session (seed `/revoke`); the next risky step asks again."""
    session.grants.clear()


def grants_lines(view: GrantsView, locale: Locale) -> list[str]:
    """The two `/permissions` lines: allowed commands, allowed files, or "(none)"; and a
    third for MCP tools allowed for the session, when there are any."""
    separator = text("common.list_sep", locale)
    none = text("common.none", locale)
    commands = separator.join(view.commands) or none
    files = separator.join(view.files) or none
    lines = [
        text("permissions.granted_commands", locale, items=commands),
        text("permissions.granted_files", locale, items=files),
    ]
    if view.hosts:  # without any, the listing stays the seed's own two lines
        lines.append(text("network.granted_hosts", locale, items=separator.join(view.hosts)))
    if view.tools:
        lines.append(text("permissions.granted_tools", locale, items=separator.join(view.tools)))
    return lines


def network_rules_line(settings: AgentSettings) -> str | None:
    """The line of the network's settings (mode, allowed and denied hosts), when any is set
    away from the default (`ask`, both lists empty)."""
    if settings.sandbox_network == "ask" and not settings.network_allow + settings.network_deny:
        return None
    locale = settings.locale
    separator, none = text("common.list_sep", locale), text("common.none", locale)
    return text(
        "network.rules",
        locale,
        mode=settings.sandbox_network,
        allow=separator.join(settings.network_allow) or none,
        deny=separator.join(settings.network_deny) or none,
    )


def revoked_line(locale: Locale) -> str:
    """What `/revoke` says after clearing: "(all grants for this session have been revoked)"."""
    return text("permissions.revoked", locale)
