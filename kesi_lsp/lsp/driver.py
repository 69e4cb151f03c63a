"""Drive one run from start to `kesi/runFinished`, whatever happens on the way.

The core loop runs in its own task inside the run's task. `kesi.cancel` and the progress
Cancel button cancel the inner task, which the core answers like Ctrl-C; the server shutting
down cancels the outer task, which stops the inner one and still reports the end. Every path
ends with exactly one `kesi/runFinished`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from kesi_lsp.catalog import text
from kesi_lsp.core.events import RunFinished
from kesi_lsp.core.meter import Usage
from kesi_lsp.core.permissions import PermissionGate
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.lsp.approver import LspApprover, Prompter, PromptSupport
from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.delivery import EditorLink, LspWorkspaceView
from kesi_lsp.lsp.output import RunOutput
from kesi_lsp.lsp.runs import Run

log = logging.getLogger(__name__)

AgentRunner = Callable[[ToolContext, str], Awaitable[RunFinished]]
"""Runs the agent on a prompt in a prepared context; cancelled with `Task.cancel()`."""


@dataclass
class Host:
    """What a run needs from the server: the client link, the agent and the environment."""

    link: EditorLink
    prompts: PromptSupport
    runner: AgentRunner
    environ: Mapping[str, str]

    @property
    def features(self) -> ClientFeatures:
        return self.link.features


def _cancelled(run: Run) -> RunFinished:
    return RunFinished("cancelled", text("lsp.run_cancelled", run.session.settings.locale), Usage())


async def drive(host: Host, run: Run) -> None:
    """The body of a run's task."""
    locale = run.session.settings.locale
    output = RunOutput(host.link.wire, run, host.features, locale)
    try:
        await output.begin()
    except asyncio.CancelledError:  # cancelled before the agent even started
        _uncancel()
        output.finish(_cancelled(run), run.session.usage)
        return
    prompter = Prompter(host.link.wire, host.prompts, locale)
    view = LspWorkspaceView(
        host.link, run.folder.path, run.id, prompter, on_applied=lambda c: run.edits.append(c.path)
    )
    ctx = ToolContext(
        session=run.session,
        view=view,
        gate=PermissionGate(run.session, LspApprover(prompter)),
        environ=host.environ,
        emit=output.emit,
    )
    finished = await _run_agent(host.runner, ctx, run)
    output.finish(finished, run.session.usage)


async def _run_agent(runner: AgentRunner, ctx: ToolContext, run: Run) -> RunFinished:
    run.agent = agent = asyncio.ensure_future(runner(ctx, run.prompt))
    try:
        return await asyncio.shield(agent)
    except asyncio.CancelledError:
        if _uncancel():  # our own task was cancelled (the server is going away)
            agent.cancel()
        try:
            return await agent
        except asyncio.CancelledError:
            return _cancelled(run)
        except Exception as exc:
            return _internal_error(run, exc)
    except Exception as exc:
        return _internal_error(run, exc)


def _uncancel() -> bool:
    """Absorb a cancellation of the current task so the run can still report its end.

    Returns True when the current task itself was being cancelled (as opposed to an inner
    task whose cancellation surfaced here).
    """
    me = asyncio.current_task()
    if me is None or not me.cancelling():
        return False
    while me.cancelling():
        me.uncancel()
    return True


def _internal_error(run: Run, exc: Exception) -> RunFinished:
    log.error("run %s crashed", run.id, exc_info=exc)
    message = text(
        "lsp.run_crashed", run.session.settings.locale, error=f"{type(exc).__name__}: {exc}"
    )
    return RunFinished("failed", message, Usage())
