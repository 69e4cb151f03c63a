"""A run as the LSP client sees it: the core drives it, this module says where it goes.

The run's life (one per folder at a time, the sandbox and approvals notices, the gate, the one
`RunFinished`) is the core's (`kesi_lsp.core.runs.drive`); here is only its `RunFrontend` for an
LSP client: its story goes out as `kesi/stream` or log lines with a progress bar (`output.py`),
its edits through the editor (`delivery.py`), its questions as prompts or reviews
(`approver.py`), and an unconfined sandbox is also shown as a warning message.
"""

from __future__ import annotations

from dataclasses import dataclass

from lsprotocol import types

from kesi_lsp.catalog import text
from kesi_lsp.core import Event, FileChange, Run, RunFinished, Runs, Runtime, drive
from kesi_lsp.lsp.approver import LspApprover, Prompter, PromptSupport
from kesi_lsp.lsp.delivery import LspWorkspaceView
from kesi_lsp.lsp.diagnostics import LspDiagnostics
from kesi_lsp.lsp.folders import Folder
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.output import RunOutput


def progress_token(run: Run) -> str:
    """The work-done progress token of `run` (its Cancel button names the run by it)."""
    return f"kesi-run-{run.id}"


def run_for_token(runs: Runs, token: object) -> Run | None:
    """The live run whose progress bar `token` belongs to."""
    if not isinstance(token, str) or not token.startswith("kesi-run-"):
        return None
    return runs.get(token.removeprefix("kesi-run-"))


@dataclass
class Host:
    """What every run of one client shares: the link to the editor, the core's runtime, and
    whether the client can show prompts at all."""

    link: EditorLink
    runtime: Runtime
    prompts: PromptSupport


class LspRun:
    """The `RunFrontend` of one run for an LSP client."""

    def __init__(self, host: Host, run: Run, folder: Folder) -> None:
        link, settings = host.link, run.session.settings
        self._link = link
        self._folder = folder
        self._output = RunOutput(link.wire, run, progress_token(run), link.features)
        accepted = settings.approvals == "acceptEdits"
        prompter = Prompter(
            link.wire,
            host.prompts,
            settings.locale,
            edits_accepted=accepted,
            list_answers=not link.features.kesi,
        )
        self._approver = LspApprover(prompter, link.wire, link.features, run.id)
        self._view = LspWorkspaceView(
            link, run.root, self._approver, settings.locale, on_applied=self._applied
        )
        self._run = run

    def _applied(self, change: FileChange) -> None:
        self._run.edits.append(change.path)

    @property
    def view(self) -> LspWorkspaceView:
        return self._view

    @property
    def approver(self) -> LspApprover:
        return self._approver

    @property
    def diagnostics(self) -> LspDiagnostics | None:
        """`kesi/diagnostics`, for clients that announce `experimental.kesi.diagnostics`."""
        if not self._link.features.diagnostics:
            return None
        return LspDiagnostics(self._link, self._run.root, self._run.session.settings.locale)

    async def begin(self) -> None:
        await self._output.begin()

    async def prepare(self) -> None:
        await self._view.begin()

    def emit(self, event: Event) -> None:
        self._output.emit(event)
        self._view.watch(event)

    def unconfined(self, status: str) -> None:
        """Commands run unconfined in this folder: a warning the user cannot miss."""
        locale = self._output.locale
        message = text("lsp.sandbox_off", locale, folder=self._folder.name, status=status)
        self._link.wire.notify(
            types.WINDOW_SHOW_MESSAGE,
            types.ShowMessageParams(type=types.MessageType.Warning, message=message),
        )

    def finish(self, finished: RunFinished) -> None:
        self._output.finish(finished, self._run.session.usage)


async def drive_lsp_run(host: Host, run: Run, folder: Folder) -> RunFinished:
    """The body of an LSP run's task: the core's `drive`, with this client as its front end."""
    return await drive(run, host.runtime, LspRun(host, run, folder))
