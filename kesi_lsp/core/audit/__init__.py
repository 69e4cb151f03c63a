"""The audit log (seed Day 11, issue 29): what KeSi did in a folder, and who decided it.

One record per shell command, file edit, later keep or undo, MCP call and network grant, as a
JSON line in the folder's file in the user's state folder (`log.py`: where, rotation), redacted
like everything else (`trail.py`: the records). `kesi.audit` and `kesi-lsp audit` read it back
as lines (`lines.py`; `since.py`: the CLI's `--since`). The `auditLog` setting (user
settings only: a project cannot hide what it made KeSi do) turns recording off; resetting the
conversation never clears it.

For other parts of KeSi: a tool that runs something on the user's behalf records it through
the run's `ToolContext.audit` (None when the log is off), e.g. `audit_mcp_call(ctx, ...)` and
`audit_network_grant(ctx, ...)` below; both do nothing without a log.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.audit.lines import record_line
from kesi_lsp.core.audit.log import AuditLog
from kesi_lsp.core.audit.since import parse_since, records_since
from kesi_lsp.core.audit.trail import AuditTrail, Decider

if TYPE_CHECKING:
    from kesi_lsp.core.tools.context import ToolContext

__all__ = [
    "AuditLog",
    "AuditTrail",
    "Decider",
    "audit_directory",
    "audit_lines",
    "audit_mcp_call",
    "audit_network_grant",
    "audit_records",
    "parse_since",
    "record_line",
]

RECENT = 50
"""Records `kesi.audit` shows by default."""


def audit_directory(environ: Mapping[str, str]) -> Path | None:
    """`$XDG_STATE_HOME/kesi/audit` (absolute), else `~/.local/state/kesi/audit`; None: no home."""
    xdg = environ.get("XDG_STATE_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg, "kesi", "audit")
    home = environ.get("HOME", "")
    if home and Path(home).is_absolute():
        return Path(home, ".local", "state", "kesi", "audit")
    return None


def audit_lines(
    log: AuditLog | None,
    root: Path,
    locale: Locale,
    *,
    enabled: bool,
    limit: int | None = RECENT,
    since: datetime.datetime | None = None,
) -> tuple[list[str], str | None]:
    """The folder's newest records (`limit` of them, None: all; from `since` on, when given)
    as lines, under a title (or the sentence saying there are none, or why there is no log),
    and the file's path."""
    if log is None or log.inside(root):
        return [text("audit.unavailable", locale)], None
    log.flush()
    path = str(log.file_for(root))
    records = audit_records(log, root, limit=limit, since=since)
    head: list[str] = [] if enabled else [text("audit.off", locale, path=path)]
    if not records:
        if since is not None:
            when = since.strftime("%Y-%m-%d %H:%M:%S")
            return [*head, text("audit.empty_since", locale, folder=root.name, since=when)], path
        return [*head, text("audit.empty", locale, folder=root.name, path=path)], path
    title = text("audit.title", locale, folder=root.name, path=path)
    return [*head, title, *(record_line(r, locale) for r in records)], path


def audit_records(
    log: AuditLog, root: Path, *, limit: int | None = None, since: datetime.datetime | None = None
) -> list[dict[str, Any]]:
    """The folder's records, oldest first: from `since` on, the newest `limit` of them."""
    records = log.records(root)
    if since is not None:
        records = records_since(records, since)
    return records if limit is None else records[-limit:]


def audit_mcp_call(ctx: ToolContext, server: str, tool: str, **fields: Any) -> None:
    """Record an MCP tool call of the run (`AuditTrail.mcp_call`'s fields); nothing when the
    audit log is off."""
    if ctx.audit is not None:
        ctx.audit.mcp_call(server, tool, **fields)


def audit_network_grant(ctx: ToolContext, host: str, **fields: Any) -> None:
    """Record a network grant or refusal of the run (`AuditTrail.network_grant`'s fields);
    nothing when the audit log is off."""
    if ctx.audit is not None:
        ctx.audit.network_grant(host, **fields)
