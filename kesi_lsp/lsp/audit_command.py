"""`kesi.audit`: the folder's audit log, newest records last, as the server's own lines.

The records are read from the user's state folder (`core.audit`); every client shows the same
`lines` (VS Code's KeSi output, Neovim's `:KeSiAudit`, Emacs' `M-x kesi-audit`), and gets the
file's path for a closer look.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from kesi_lsp.core import audit_lines
from kesi_lsp.lsp.args import read_args
from kesi_lsp.lsp.commands import target
from kesi_lsp.lsp.contract import AuditArgs, AuditResult
from kesi_lsp.lsp.server import KesiServer

AUDIT: Final = "kesi.audit"
MAX_LIMIT: Final = 1000


async def audit(ls: KesiServer, *args: Any) -> AuditResult:
    """The newest records of the folder's audit log (50 unless `limit` says, at most 1000)."""
    arg = read_args(AUDIT, args, AuditArgs)
    folder, _ = target(ls, arg.uri)
    settings = ls.settings_for(folder).settings
    limit = min(max(arg.limit or 50, 1), MAX_LIMIT)
    lines, path = await asyncio.to_thread(
        audit_lines,
        ls.host.runtime.audit,
        folder.path,
        settings.locale,
        enabled=settings.audit_log,
        limit=limit,
    )
    if not ls.features.stream:  # an editor without a KeSi client shows nothing by itself
        ls.show("\n".join(lines))
    return AuditResult(lines=lines, path=path, enabled=settings.audit_log)


def register(server: KesiServer) -> None:
    server.command(AUDIT)(audit)
