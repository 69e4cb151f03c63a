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
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

from kesi_lsp.catalog import text
from kesi_lsp.core.errors import SandboxUnavailableError
from kesi_lsp.core.events import Event, Notice, RunFinished
from kesi_lsp.core.meter import Usage
from kesi_lsp.core.permissions import PermissionGate, home_from
from kesi_lsp.core.problems import ProblemWatch
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.sandbox.selection import describe, select_sandbox, status_line
from kesi_lsp.core.settings import AgentSettings
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.lsp.approver import LspApprover, Prompter, PromptSupport
from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.delivery import EditorLink, LspWorkspaceView
from kesi_lsp.lsp.diagnostics import LspDiagnostics
from kesi_lsp.lsp.output import RunOutput
from kesi_lsp.lsp.runs import Run

log = logging.getLogger(__name__)

AgentRunner = Callable[[ToolContext, str], Awaitable[RunFinished]]
"""Runs the agent on a prompt in a prepared context; cancelled with `Task.cancel()`."""


@dataclass
class Sandboxes:
    """The sandbox of each (folder, mode): choosing one probes bwrap, so it is done once."""

    environ: Mapping[str, str]
    chosen: dict[tuple[Path, str], Sandbox] = field(default_factory=dict)

    async def get(self, root: Path, settings: AgentSettings) -> tuple[Sandbox, bool]:
        """The sandbox, and whether it was just chosen (then the user is told which)."""
        key = (root, settings.sandbox)
        if key in self.chosen:
            return self.chosen[key], False
        sandbox = await asyncio.to_thread(
            select_sandbox, settings.sandbox, root, self.environ, locale=settings.locale
        )
        self.chosen[key] = sandbox
        return sandbox, True


@dataclass
class Host:
    """What a run needs from the server: the client link, the agent and the environment."""

    link: EditorLink
    prompts: PromptSupport
    runner: AgentRunner
    environ: Mapping[str, str]
    sandboxes: Sandboxes
    told_edits_accepted: set[Path] = field(default_factory=set)  # folders told "no review"

    @property
    def features(self) -> ClientFeatures:
        return self.link.features


def _cancelled(run: Run) -> RunFinished:
    return RunFinished("cancelled", text("lsp.run_cancelled", run.session.settings.locale), Usage())


async def drive(host: Host, run: Run) -> None:
    """The body of a run's task."""
    settings = run.session.settings
    output = RunOutput(host.link.wire, run, host.features, settings.locale)
    try:
        await output.begin()
        sandbox, fresh = await host.sandboxes.get(run.folder.path, settings)
    except asyncio.CancelledError:  # cancelled before the agent even started
        _uncancel()
        output.finish(_cancelled(run), run.session.usage)
        return
    except SandboxUnavailableError as exc:  # the setting asks for a sandbox this machine lacks
        output.finish(RunFinished("failed", str(exc), Usage()), run.session.usage)
        return
    if fresh:
        announce_sandbox(host, run, output, sandbox)
    announce_approvals(host, run, output)
    accepted = settings.approvals == "acceptEdits"
    prompter = Prompter(host.link.wire, host.prompts, settings.locale, edits_accepted=accepted)
    view = LspWorkspaceView(
        host.link, run.folder.path, run.id, prompter, on_applied=lambda c: run.edits.append(c.path)
    )

    def emit(event: Event) -> None:
        output.emit(event)
        view.watch(event)

    async def agent(ctx: ToolContext, prompt: str) -> RunFinished:
        await view.begin()  # inside the agent's task, so a cancel here is a cancelled run
        return await host.runner(ctx, prompt)

    ctx = ToolContext(
        session=run.session,
        view=view,
        gate=PermissionGate(run.session, LspApprover(prompter), home=home_from(host.environ)),
        sandbox=sandbox,
        environ=host.environ,
        emit=emit,
        problems=_problems(host, run),
    )
    finished = await _run_agent(agent, ctx, run)
    output.finish(finished, run.session.usage)


def _problems(host: Host, run: Run) -> ProblemWatch | None:
    """The editor's diagnostics around the run's changes, when the client can tell them
    (`experimental.kesi.diagnostics`); otherwise nothing is claimed about them."""
    if not host.features.diagnostics:
        return None
    locale = run.session.settings.locale
    return ProblemWatch(LspDiagnostics(host.link, run.folder.path, locale), locale)


def announce_sandbox(host: Host, run: Run, output: RunOutput, sandbox: Sandbox) -> None:
    """Say once per folder what confines shell commands ("protection you can't see doesn't
    count", seed Day 15): a notice at the start of the first run's output, and a warning the
    user cannot miss when commands run unconfined."""
    locale = run.session.settings.locale
    state = describe(sandbox, run.folder.path, host.environ)
    line = status_line(state, locale)
    output.emit(Notice("sandbox", line))
    if state.variant != "on":
        message = text("lsp.sandbox_off", locale, folder=run.folder.name, status=line)
        host.link.wire.notify(
            types.WINDOW_SHOW_MESSAGE,
            types.ShowMessageParams(type=types.MessageType.Warning, message=message),
        )


def announce_approvals(host: Host, run: Run, output: RunOutput) -> None:
    """Under `approvals: "acceptEdits"`, say once per folder that file edits land without a
    review: the user chose it, but a change that is not shown should never come as a surprise."""
    settings = run.session.settings
    if settings.approvals != "acceptEdits" or run.folder.path in host.told_edits_accepted:
        return
    host.told_edits_accepted.add(run.folder.path)
    output.emit(Notice("approvals", text("lsp.edits_accepted", settings.locale)))


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
    error = f"{type(exc).__name__}: {exc}"
    message = text("lsp.run_crashed", run.session.settings.locale, error=error)
    return RunFinished("failed", message, Usage())
