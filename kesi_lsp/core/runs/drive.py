"""Drive one run from start to its one `RunFinished`, whatever happens on the way.

The core loop runs in its own task inside the run's task. A front end's cancel (`Run.cancel`:
`kesi.cancel`, the progress bar's Cancel, ACP's `session/cancel`) cancels the inner task, which
the core answers like Ctrl-C; the front end shutting down cancels the outer task, which stops
the inner one and still reports the end. Every path ends with exactly one
`RunFrontend.finish`.

On the way the run gets its sandbox (chosen once per folder, announced the first time with the
seed's two start-up lines, Day 15: 「工作目錄：…」 and 「指令沙箱：…」), the approvals notice
(once per folder under "acceptEdits": a change that is not shown should never come as a
surprise) and its permission gate, wired to the front end's approver.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.approval import Approver
from kesi_lsp.core.audit import AuditLog, AuditTrail, audit_directory
from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.diagnostics.editor import EditorProblems
from kesi_lsp.core.errors import SandboxUnavailableError
from kesi_lsp.core.events import Event, Notice, RunFinished
from kesi_lsp.core.mcp.hub import McpHandle, McpHub
from kesi_lsp.core.mcp.workspace import WorkspaceServers, merged
from kesi_lsp.core.runs.agent import AgentRunner, CoreAgent
from kesi_lsp.core.runs.loading import Busy, never_busy
from kesi_lsp.core.runs.registry import Run
from kesi_lsp.core.runs.sandboxes import Sandboxes, announcement
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.core.workspace import WorkspaceView

if TYPE_CHECKING:  # the gate, the tools and the change sets load with a run, not the server
    from kesi_lsp.core.changes.run import RunChanges
    from kesi_lsp.core.diagnostics.watch import ProblemWatch
    from kesi_lsp.core.tools.context import ToolContext

log = logging.getLogger(__name__)


class RunFrontend(Protocol):
    """How one run reaches the person who started it; a front end builds one per run."""

    @property
    def view(self) -> WorkspaceView:
        """Where the run reads files and delivers its edits."""
        ...

    @property
    def approver(self) -> Approver:
        """Who the permission gate asks."""
        ...

    @property
    def diagnostics(self) -> EditorProblems | None:
        """What the editor's other language servers report (design §2.10), when the front end
        can ask; None: nothing is claimed about new problems after a change."""
        ...

    async def begin(self) -> None:
        """The run is starting (e.g. a progress bar appears); a cancel here ends the run."""
        ...

    async def prepare(self) -> None:
        """Inside the agent's task, just before its first turn (a cancel is a cancelled run)."""
        ...

    def emit(self, event: Event) -> None:
        """The run's story, event by event, in order."""
        ...

    def unconfined(self, status: str) -> None:
        """Shell commands run unconfined here (`status` says why): warn where it cannot be
        missed, beyond the notice in the run's story."""
        ...

    def finish(self, finished: RunFinished) -> None:
        """The run's one end."""
        ...


class Runtime:
    """What all runs of one front end share: the host environment, the one agent runner
    (`CoreAgent`: loaded lazily, its model clients kept), what runs (that agent, unless a test
    gives a stand-in) and the summary `kesi.compact` runs (the agent's, unless given), the
    sandboxes chosen so far and the folders already told that edits land without a review."""

    def __init__(
        self,
        environ: Mapping[str, str],
        runner: AgentRunner | None = None,
        *,
        compaction: AgentRunner | None = None,
    ) -> None:
        self.environ = environ
        self.agent = CoreAgent()
        self.runner: AgentRunner = runner or self.agent
        self.compaction: AgentRunner = compaction or self.agent.compact
        self.sandboxes = Sandboxes(environ)
        directory = audit_directory(environ)
        self.audit = AuditLog(directory) if directory is not None else None
        self.told_edits_accepted: set[Path] = set()
        self.told_workspace: set[Path] = set()
        self.mcp = McpHub()
        self.workspace_mcp = WorkspaceServers(environ)

    async def prepare(
        self, folders: Sequence[tuple[Path, AgentSettings]], busy: Busy = never_busy
    ) -> None:
        """Get ready for the first run of each folder, in the background of a front end that
        has just connected: let the agent load itself and its model client
        (`CoreAgent.prepare`, stepping aside while `busy()`; a stand-in runner has nothing to
        load), then choose the sandboxes (a bwrap probe each); the folders' MCP servers are
        started before all that, in the background (`core.mcp.hub`). A failure here is only logged:
        the run that needs the part tries again and says why.
        """
        for root, settings in folders:  # MCP servers first: they start in the background
            try:
                await self.start_mcp(str(root), root, settings)
            except SandboxUnavailableError as exc:
                log.info("no sandbox for %s, so no MCP servers yet: %s", root, exc)
        if self.runner is self.agent and folders:
            await self.agent.prepare(folders[0][1], self.environ, busy)
        for root, settings in folders:
            try:
                await self.sandboxes.choose(root, settings)
            except SandboxUnavailableError as exc:
                log.info("no sandbox for %s yet: %s", root, exc)

    async def start_mcp(self, key: str, root: Path, settings: AgentSettings) -> None:
        """Start the MCP servers of `settings` for `key` in the background (`core.mcp.hub`),
        with those of `root`'s `.mcp.json` the user approved before (nothing is asked here),
        in `root`'s sandbox (chosen, not taken: the first run still announces it, Day 15)."""
        own = settings.mcp_servers
        configs = merged(own, await self.workspace_mcp.approved(root, {c.name for c in own}))
        if not configs and self.mcp.get(key) is None:
            return
        sandbox = await self.sandboxes.choose(root, settings)
        self.mcp.ensure(key, configs, root, sandbox, self.environ, settings.locale, settings)

    async def prepare_agent(self, settings: AgentSettings) -> None:
        """Load the agent and its model client for `settings` now, before any folder is known
        (ACP's `initialize`: its sessions name their folders later). Only logged on failure,
        as `prepare`."""
        if self.runner is not self.agent:
            return
        try:
            await self.agent.prepare(settings, self.environ)
        except Exception as exc:  # the run that needs it tries again and says why
            log.warning("could not prepare the agent: %s", exc)

    async def aclose(self) -> None:
        """The front end is going away: let the agent release what it kept, stop the MCP
        servers, and let the audit log's last records reach the disk."""
        if self.audit is not None:
            await asyncio.to_thread(self.audit.flush)
        await self.agent.aclose()
        await self.mcp.aclose()


def _cancelled(run: Run) -> RunFinished:
    return RunFinished("cancelled", text("runs.cancelled", run.session.settings.locale), Usage())


async def drive(run: Run, runtime: Runtime, frontend: RunFrontend) -> RunFinished:
    """The body of a run's task; returns what it told `frontend.finish`."""
    settings = run.session.settings
    try:
        await frontend.begin()
        for note in run.session.take_notices():  # a resumed conversation says so first
            frontend.emit(Notice("resume", note))
        sandbox, fresh = await runtime.sandboxes.get(run.root, settings)
    except asyncio.CancelledError:  # cancelled before the agent even started
        _uncancel()
        return _finish(run, frontend, _cancelled(run))
    except SandboxUnavailableError as exc:  # the setting asks for a sandbox this machine lacks
        return _finish(run, frontend, RunFinished("failed", str(exc), Usage()))
    if fresh:
        _announce_sandbox(run, runtime, frontend, sandbox)
    _announce_approvals(run, runtime, frontend)
    ctx = _context(run, runtime, frontend, sandbox)

    async def agent(ctx: ToolContext, prompt: str) -> RunFinished:
        await frontend.prepare()  # inside the agent's task, so a cancel here is a cancelled run
        ctx.mcp = await _mcp(run, runtime, frontend, sandbox)
        return await (run.runner or runtime.runner)(ctx, prompt)

    finished = await _run_agent(agent, ctx, run)
    if finished.status == "cancelled":
        _tasks_left(run, frontend)
    return _finish(run, frontend, finished)


def _tasks_left(run: Run, frontend: RunFrontend) -> None:
    """A cancel stops the run, not its background tasks (they are the user's now): say which
    still run and how this editor stops them."""
    running = run.session.tasks.views()
    if not any(view.state == "running" for view in running):
        return
    from kesi_lsp.core.background.words import listing

    settings = run.session.settings
    locale = settings.locale
    how = text(f"background.how.{settings.editor}", locale)
    alive = listing([view for view in running if view.state == "running"], locale)
    frontend.emit(Notice("info", text("background.cancelled", locale, tasks=alive, how=how)))


def _context(run: Run, runtime: Runtime, frontend: RunFrontend, sandbox: Sandbox) -> ToolContext:
    """The run's tools, its permission gate and its recorders. Imported here: they are half of
    KeSi's own import time, and a server being started does not need them yet (benchmark 4)."""
    from kesi_lsp.core.network.access import NetworkAccess
    from kesi_lsp.core.permissions import PermissionGate, home_from
    from kesi_lsp.core.sandbox.selection import describe, masks_secrets
    from kesi_lsp.core.tools.context import ToolContext

    return ToolContext(
        session=run.session,
        view=frontend.view,
        gate=PermissionGate(
            run.session,
            frontend.approver,
            home=home_from(runtime.environ),
            secrets_masked=masks_secrets(describe(sandbox, run.root, runtime.environ)),
        ),
        sandbox=sandbox,
        environ=runtime.environ,
        emit=frontend.emit,
        changes=_run_changes(run),
        problems=_problems(frontend, run.session.settings.locale),
        audit=_audit_trail(run, runtime),
        network=NetworkAccess.for_environment(runtime.environ),
    )


def _audit_trail(run: Run, runtime: Runtime) -> AuditTrail | None:
    """The run's records in the folder's audit log; later keeps and undos of its changes too."""
    settings = run.session.settings
    log_ = runtime.audit
    if log_ is None or not settings.audit_log or log_.inside(run.root):
        return None
    from kesi_lsp.core.redaction import redactor_for

    redact = redactor_for(runtime.environ, settings.locale, settings.pass_env)
    trail = AuditTrail(log_, run.root, run.id, redact)
    run.session.changes.observer = trail.transition
    return trail


async def _mcp(
    run: Run, runtime: Runtime, frontend: RunFrontend, sandbox: Sandbox
) -> McpHandle | None:
    """The session's MCP servers, started now if the preparation did not, restarted if the
    setting changed (never waited for), with the folder's `.mcp.json` servers the user
    approved (asked here the first time, `core.mcp.workspace`)."""
    settings = run.session.settings
    key = run.session.mcp_group_key
    own = settings.mcp_servers
    taken = {c.name for c in own}
    workspace = await runtime.workspace_mcp.settle(
        run.root, taken, frontend.approver, settings.locale, frontend.emit
    )
    configs = merged(own, workspace)
    handle = runtime.mcp.ensure(
        key, configs, run.root, sandbox, runtime.environ, settings.locale, settings
    )
    if handle is not None:
        handle.follow(run.session)
    return handle


def _run_changes(run: Run) -> RunChanges | None:
    """Where the run's changes are recorded (design §2.9), unless the folder turned it off."""
    if not run.session.settings.change_sets:
        return None
    from kesi_lsp.core.changes.labels import RunAbout, title_of
    from kesi_lsp.core.changes.run import RunChanges

    title = run.title if run.title is not None else title_of(run.prompt)
    run.session.changes.introduce(run.id, RunAbout(title, run.place))
    return RunChanges(run.session.changes, run.root, run.id, run.prompt)


def _problems(frontend: RunFrontend, locale: Locale) -> ProblemWatch | None:
    """The editor's diagnostics around the run's changes, when the front end can ask."""
    editor = frontend.diagnostics
    from kesi_lsp.core.diagnostics.watch import ProblemWatch

    return ProblemWatch(editor, locale) if editor is not None else None


def _finish(run: Run, frontend: RunFrontend, finished: RunFinished) -> RunFinished:
    run.session.changes.judged(run.id, finished.verified)  # weighed again after an undo
    frontend.finish(finished)
    return finished


def _announce_sandbox(run: Run, runtime: Runtime, frontend: RunFrontend, sandbox: Sandbox) -> None:
    """Say once per folder where KeSi works and what confines its shell commands, the seed's
    start-up lines (Day 15: 「工作目錄：…」, 「指令沙箱：…」; "protection you can't see doesn't
    count"): notices at the start of the first run's story, and a warning the user cannot miss
    when commands run unconfined. A changed sandbox setting is announced again; the folder is
    not."""
    settings = run.session.settings
    if run.root not in runtime.told_workspace:
        runtime.told_workspace.add(run.root)
        frontend.emit(Notice("workspace", text("runs.workspace", settings.locale, root=run.root)))
    said = announcement(sandbox, run.root, settings, runtime.environ)
    frontend.emit(Notice("sandbox", said.line))
    if said.unconfined:
        frontend.unconfined(said.line)


def _announce_approvals(run: Run, runtime: Runtime, frontend: RunFrontend) -> None:
    """Under `approvals: "acceptEdits"`, say once per folder that file edits land without a
    review: the user chose it, but a change that is not shown should never come as a surprise."""
    settings = run.session.settings
    if settings.approvals != "acceptEdits" or run.root in runtime.told_edits_accepted:
        return
    runtime.told_edits_accepted.add(run.root)
    frontend.emit(Notice("approvals", text("runs.edits_accepted", settings.locale)))


async def _run_agent(runner: AgentRunner, ctx: ToolContext, run: Run) -> RunFinished:
    run.agent = agent = asyncio.ensure_future(runner(ctx, run.prompt))
    try:
        return await asyncio.shield(agent)
    except asyncio.CancelledError:
        if _uncancel():  # our own task was cancelled (the front end is going away)
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
    message = text("runs.crashed", run.session.settings.locale, error=error)
    return RunFinished("failed", message, Usage())
