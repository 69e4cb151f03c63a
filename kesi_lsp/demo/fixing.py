"""KeSi's part of the demo: start `kesi-lsp` as an editor does, ask it to fix the failing
test the way a user would (a diagnostic, its code action, the command), and wait for the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.demo.answers import Answers
from kesi_lsp.demo.checks import Failure
from kesi_lsp.demo.editor import DemoEditor, Round
from kesi_lsp.demo.errors import DemoError
from kesi_lsp.demo.model import Model
from kesi_lsp.demo.screen import Screen
from kesi_lsp.testing import Program, connected
from kesi_lsp.testing.text import whole_line

FIX_THIS = "kesi.fixThis"
LSP_SECONDS = 30.0
CANCEL_SECONDS = 20.0
EXIT_SECONDS = 10.0


@dataclass(frozen=True)
class Fixed:
    """What the run cost and took: the server's usage totals, its rounds, the wall clock;
    and the server's own verdict on the change (`kesi/runFinished.verified`, None: none)."""

    usage: Mapping[str, Any]
    rounds: list[Round]
    seconds: float
    verified: Mapping[str, Any] | None = None


@dataclass
class FixRun:
    """One "fix this" in the demo editor; `model_option` is `--model`, `timeout` `--timeout`."""

    screen: Screen
    answers: Answers
    locale: Locale
    project: Path
    workdir: Path
    server_log: Path
    bin_dir: Path
    model_option: str | None
    timeout: float

    def t(self, key: str, **fields: object) -> str:
        return text(key, self.locale, **fields)

    async def fix(self, model: Model, failure: Failure) -> Fixed:
        self.screen.section(self.t("demo.section.editor"))
        async with self._editor(model) as editor:
            run_id = await self._ask_for_fix(editor, failure)
            self.screen.section(self.t("demo.section.run"))
            started = time.monotonic()
            finished = await self._wait(editor, run_id)
            seconds = time.monotonic() - started
            self.screen.info(self.t("demo.run.finished", status=finished.get("status")))
            if isinstance(bill := finished.get("bill"), str):  # Day 18: the run's bill line
                self.screen.note(f"  {bill}")
            usage = finished.get("usage")
            verified = finished.get("verified")
            return Fixed(
                usage if isinstance(usage, Mapping) else {},
                editor.log.rounds,
                seconds,
                verified if isinstance(verified, Mapping) else None,
            )

    @contextlib.asynccontextmanager
    async def _editor(self, model: Model) -> AsyncIterator[DemoEditor]:
        """Start kesi-lsp over stdio as an editor does; shut it down politely afterwards."""
        demo = DemoEditor(self.screen, self.answers, self.locale)
        server = Program(
            [sys.executable, "-m", "kesi_lsp"],
            # The demo's conversation is a throwaway: kept beside its log, not in the home.
            env={
                **model.environment(os.environ, self.bin_dir),
                "XDG_STATE_HOME": str(self.workdir / "state"),
            },
            cwd=self.workdir,
            # Its own session, as editors start language servers: Ctrl-C at the terminal
            # reaches the demo, which cancels the run properly, instead of killing the server
            # mid-edit.
            new_session=True,
            stderr_to=self.server_log,
        )
        try:
            async with connected(demo.client, server, grace=EXIT_SECONDS):
                self.screen.note(self.t("demo.editor.server", log=self.server_log))
                await self._initialize(demo)
                yield demo
                await asyncio.wait_for(demo.client.shutdown_async(None), LSP_SECONDS)
                demo.client.exit(None)
        except (RuntimeError, TimeoutError, ConnectionError) as exc:
            raise DemoError(self.t("demo.error.server", error=exc, log=self.server_log)) from exc

    async def _initialize(self, demo: DemoEditor) -> None:
        options: dict[str, Any] = {"locale": self.locale}
        if self.model_option:
            options["model"] = self.model_option
        await demo.editor.initialize(
            [self.project], options={"kesi": options}, name="kesi-lsp demo", seconds=LSP_SECONDS
        )

    async def _ask_for_fix(self, editor: DemoEditor, failure: Failure) -> str:
        """Open the failing test, show pytest's failure as a diagnostic, pick "fix this"."""
        title, command = await self._fix_command(editor, failure)
        started = await asyncio.wait_for(
            editor.client.workspace_execute_command_async(
                types.ExecuteCommandParams(command=command.command, arguments=command.arguments)
            ),
            LSP_SECONDS,
        )
        run_id = started.get("runId") if isinstance(started, Mapping) else None
        if not isinstance(run_id, str):
            raise DemoError(self.t("demo.error.server", error=started, log=self.server_log))
        self.screen.info(self.t("demo.editor.execute", title=title, command=FIX_THIS, run=run_id))
        return run_id

    async def _fix_command(self, editor: DemoEditor, failure: Failure) -> tuple[str, types.Command]:
        """The title and command of the "fix this" code action on the failing test's line."""
        buffer = editor.editor.open(self.project / failure.file)
        diagnostic = types.Diagnostic(
            range=whole_line(buffer.text, failure.line - 1),
            message=f"{failure.test}: {failure.message}",
            severity=types.DiagnosticSeverity.Error,
            source="pytest",
        )
        self.screen.info(
            self.t(
                "demo.editor.open", path=failure.file, line=failure.line, message=failure.message
            )
        )
        actions = await asyncio.wait_for(
            editor.client.text_document_code_action_async(
                types.CodeActionParams(
                    text_document=types.TextDocumentIdentifier(uri=buffer.uri),
                    range=diagnostic.range,
                    context=types.CodeActionContext(diagnostics=[diagnostic]),
                )
            ),
            LSP_SECONDS,
        )
        offered = [a for a in actions or [] if isinstance(a, types.CodeAction)]
        titles = ", ".join(f'"{a.title}"' for a in offered) or "-"
        self.screen.info(self.t("demo.editor.actions", line=failure.line, titles=titles))
        fix = next((a for a in offered if a.command and a.command.command == FIX_THIS), None)
        if fix is None or fix.command is None:
            raise DemoError(self.t("demo.error.no_action", path=failure.file, line=failure.line))
        return fix.title, fix.command

    async def _wait(self, editor: DemoEditor, run_id: str) -> dict[str, Any]:
        """Wait for the run's end. Past the timeout, or on Ctrl-C, cancel it the way the
        editor's Cancel button does (`kesi.cancel`) and wait for KeSi to wind down; a second
        Ctrl-C stops the demo at once."""
        try:
            return await editor.editor.wait_finished(run_id, self.timeout)
        except TimeoutError:
            self.screen.bad(self.t("demo.run.timeout", seconds=f"{self.timeout:g}"))
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is None or task.uncancel() != 0:
                raise
            self.screen.bad(self.t("demo.run.interrupted"))
        await editor.editor.command("kesi.cancel", {"runId": run_id}, seconds=LSP_SECONDS)
        return await editor.editor.wait_finished(run_id, CANCEL_SECONDS)
