"""Per-session grants (seed Day 14): exact command strings and resolved file paths.

A grant never widens: `pytest -q` does not grant `pytest -v`, `cd build && rm -rf .` does not
grant `rm -rf . && cd build`, and `src/a.py` does not grant `src/b.py`. Grants live in memory
for the session, survive `/reset`, and are visible and revocable: "a grant list you can't see or
revoke isn't a real grant list". The grants themselves are session state (`Session.grants`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.session import Session


@dataclass(frozen=True)
class GrantsView:
    """What `kesi.permissions` returns: granted commands, and files as POSIX paths relative to
    the workspace (absolute when a file is somehow outside it), both sorted."""

    commands: list[str]
    files: list[str]
    tools: list[str] = dataclasses.field(default_factory=list)


def describe_grants(session: Session) -> GrantsView:
    """The session's grants as the user should see them (seed `/permissions`)."""
    files = []
    for path in session.grants.files:
        try:
            files.append(path.relative_to(session.root).as_posix())
        except ValueError:
            files.append(path.as_posix())
    tools = sorted(f"mcp:{t}" for t in session.grants.tools)
    return GrantsView(commands=sorted(session.grants.commands), files=sorted(files), tools=tools)


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
    if view.tools:
        lines.append(text("permissions.granted_tools", locale, items=separator.join(view.tools)))
    return lines


def revoked_line(locale: Locale) -> str:
    """What `/revoke` says after clearing: "(all grants for this session have been revoked)"."""
    return text("permissions.revoked", locale)
