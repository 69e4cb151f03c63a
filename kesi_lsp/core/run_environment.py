"""The environment part of each request's system prompt: what is true of this workspace *now*.

It is built afresh for every request (the loop's `_params`), because what it states changes
during a run: the editor's unsaved files, the background tasks that are running, the network
the sandbox has. Kept apart from the loop so the loop reads as the seed's loop.
"""

from __future__ import annotations

import datetime
import platform
from pathlib import Path

from kesi_lsp.core.background.words import running_line
from kesi_lsp.core.network.prompt import network_line
from kesi_lsp.core.prompt import PromptEnvironment
from kesi_lsp.core.sandbox.env import withheld_names
from kesi_lsp.core.sandbox.selection import describe
from kesi_lsp.core.sandbox.toolchain import workspace_venv
from kesi_lsp.core.tools.context import ToolContext


def prompt_environment(ctx: ToolContext) -> PromptEnvironment:
    """What the system prompt says of the machine, the sandbox and the editor for this request."""
    session, settings = ctx.session, ctx.session.settings
    root = session.root
    unsaved = tuple(_relative(p, root) for p in ctx.view.unsaved_files())
    network = network_line(ctx.sandbox, settings) if ctx.network is not None else None
    return PromptEnvironment(
        today=datetime.date.today(),
        root=root,
        os_name=f"{platform.system()} {platform.release()}".strip(),
        sandbox=describe(ctx.sandbox, root, ctx.environ),
        unsaved=tuple(sorted(unsaved)),
        approvals=settings.approvals,
        venv=_venv_name(root),
        withheld=withheld_names(ctx.environ, settings.pass_env),
        tasks=running_line(session.tasks.views(), ctx.locale),
        network=network,
    )


def _venv_name(root: Path) -> str | None:
    venv = workspace_venv(root)
    return venv.name if venv is not None else None


def _relative(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)
