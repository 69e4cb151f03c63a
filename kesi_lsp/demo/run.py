"""`kesi-lsp demo`: build the sample project, be its editor, let KeSi fix it, show the result.

The order follows the seed's Day 13 harness: the starting test state, the process (streamed
text, tool lines, prompts and answers, diffs), the ending test state, the diff of every
original file against the sample, and the bill. Exit status 0 means the tests ended green;
1 that they did not; 2 that the demo itself could not run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shutil
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.settings import DEFAULT_MODEL
from kesi_lsp.demo.answers import Answers, answers_for
from kesi_lsp.demo.bill import show_bill
from kesi_lsp.demo.buffers import whole_line
from kesi_lsp.demo.checks import (
    SAMPLE_ENV,
    Failure,
    ProjectDiff,
    TestState,
    changed_lines,
    diff_against,
    pytest_available,
    run_tests,
)
from kesi_lsp.demo.editor import DemoEditor, capabilities
from kesi_lsp.demo.project import BUGGY_LINE, FILES, FIXED_LINE, build
from kesi_lsp.demo.recording import recorded_model
from kesi_lsp.demo.sample_venv import make_sample_venv, python_in
from kesi_lsp.demo.screen import Screen, screen_for
from kesi_lsp.scripted_api import ScriptedServer

FIX_THIS = "kesi.fixThis"
RECORDED_KEY = "sk-ant-demo-recorded-run-not-a-real-key"
LSP_SECONDS = 30.0
CANCEL_SECONDS = 20.0
EXIT_SECONDS = 10.0
EXIT_GREEN, EXIT_RED, EXIT_BROKEN = 0, 1, 2


class DemoError(Exception):
    """The demo itself cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class Model:
    """Where the server's model requests go, and how to describe that on screen."""

    recorded: ScriptedServer | None
    name: str

    def environment(self, base: Mapping[str, str], bin_dir: Path) -> dict[str, str]:
        """The server's environment: the sample's venv first on PATH, the model's address
        and key."""
        env = dict(base)
        env["PATH"] = os.pathsep.join(filter(None, [str(bin_dir), env.get("PATH")]))
        env.update(SAMPLE_ENV)
        if self.recorded is not None:
            env = {k: v for k, v in env.items() if not k.startswith("ANTHROPIC_")}
            env["ANTHROPIC_API_KEY"] = RECORDED_KEY
            env["ANTHROPIC_BASE_URL"] = self.recorded.base_url
            env["NO_PROXY"] = ",".join(filter(None, [env.get("NO_PROXY"), "127.0.0.1"]))
        return env


def main(args: argparse.Namespace) -> int:
    locale: Locale = "zh-TW" if args.locale == "zh-TW" else "en"
    screen = screen_for(sys.stdout)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    answers = answers_for(args.yes, interactive, screen, locale)
    try:
        return asyncio.run(Demo(args, screen, answers, locale).run())
    except KeyboardInterrupt:
        screen.bad(text("demo.interrupted", locale))
        return 130


class Demo:
    """One demo run (see the module docstring)."""

    def __init__(
        self, args: argparse.Namespace, screen: Screen, answers: Answers, locale: Locale
    ) -> None:
        self.args = args
        self.screen = screen
        self.answers = answers
        self.locale = locale
        self.workdir = Path(tempfile.mkdtemp(prefix="kesi-demo-"))
        self.project = Path(args.dir).resolve() if args.dir else self.workdir / "order-pricing"
        self.server_log = self.workdir / "kesi-lsp.log"
        self.bin_dir = Path(sys.executable).parent  # until the sample has its own venv
        self.built = False
        self.log_handler: logging.Handler | None = None

    def t(self, key: str, **fields: object) -> str:
        return text(key, self.locale, **fields)

    async def run(self) -> int:
        """The demo, then clean up: the temporary folder goes unless asked to keep it, or
        unless something broke and the server's log is the place to look."""
        keep = bool(self.args.dir or self.args.keep)
        try:
            return await self._run()
        except DemoError as exc:
            self.screen.bad(str(exc))
            keep = keep or self.server_log.exists()
            return EXIT_BROKEN
        finally:
            self._clean_up(keep)

    def _clean_up(self, keep: bool) -> None:
        if self.log_handler is not None:
            logging.getLogger().removeHandler(self.log_handler)
            self.log_handler.close()
        keep_log = keep and self.server_log.exists()
        if self.built and keep:
            self.screen.note(self.t("demo.kept", path=self.project, log=self.server_log))
        elif keep_log:
            self.screen.note(self.t("demo.kept_log", log=self.server_log))
        inside = self.project.is_relative_to(self.workdir)
        if not keep_log and not (self.built and keep and inside):
            shutil.rmtree(self.workdir, ignore_errors=True)

    async def _run(self) -> int:
        self.log_handler = _log_to(self.workdir / "kesi-lsp-demo.log")
        if not pytest_available():
            raise DemoError(self.t("demo.error.no_pytest", python=sys.executable))
        if self.project.exists():
            raise DemoError(self.t("demo.error.dir_exists", path=self.project))
        build(self.project)
        self.built = True
        self.bin_dir = make_sample_venv(self.project)
        with self._model() as model:
            self._banner(model)
            self.screen.section(self.t("demo.section.start"))
            failure = self._starting_state()
            usage, rounds, seconds = await self._fix(model, failure)
        ending = self._ending_state()
        self._show_diff(diff_against(self.project, FILES))
        self.screen.section(self.t("demo.section.bill"))
        key = "demo.bill.recorded" if model.recorded else "demo.bill.live"
        show_bill(self.screen, usage, rounds, seconds, self.t(key, model=model.name), self.locale)
        return self._verdict(ending)

    # -- set-up ----------------------------------------------------------------------------------

    @contextlib.contextmanager
    def _model(self) -> Iterator[Model]:
        """The real API when there is a key (and no --recorded), else the recorded run."""
        name = self.args.model or DEFAULT_MODEL
        has_key = bool(os.environ.get("ANTHROPIC_API_KEY", "").strip())
        if has_key and not self.args.recorded:
            yield Model(None, name)
            return
        pace = self.args.pace if self.args.pace is not None else (1.0 if _tty() else 0.0)
        server = recorded_model(self.locale, max(pace, 0.0))
        server.start()
        try:
            yield Model(server, name)
        finally:
            server.stop()

    def _banner(self, model: Model) -> None:
        screen = self.screen
        screen.title(self.t("demo.title"))
        if model.recorded is not None:
            why = self.t("demo.why.flag" if self.args.recorded else "demo.why.no_key")
            screen.warn(self.t("demo.mode.recorded", why=why, url=model.recorded.base_url))
        else:
            screen.warn(self.t("demo.mode.live", model=model.name))
        screen.info(self.t(f"demo.answers.{self.answers.mode}"))
        screen.info(self.t("demo.project", path=self.project))
        screen.note(self.t("demo.venv", bin=self.bin_dir))

    # -- the test states -----------------------------------------------------------------------

    def _tests(self) -> TestState:
        self.screen.info(self.t("demo.tests.command"))
        state = run_tests(self.project, python_in(self.bin_dir))
        show = self.screen.good if state.green else self.screen.bad
        show(self.t("demo.tests.result", code=state.exit_code, summary=state.summary))
        for f in state.failures:
            self.screen.note(
                self.t(
                    "demo.tests.failure", file=f.file, test=f.test, message=f.message, line=f.line
                )
            )
        return state

    def _starting_state(self) -> Failure:
        state = self._tests()
        if state.green or not state.failures:
            raise DemoError(self.t("demo.error.not_red", summary=state.summary or state.output))
        return state.failures[0]

    def _ending_state(self) -> TestState:
        self.screen.section(self.t("demo.section.end"))
        return self._tests()

    def _show_diff(self, diff: ProjectDiff) -> None:
        self.screen.section(self.t("demo.section.diff"))
        if diff.unchanged:
            self.screen.info(self.t("demo.diff.none"))
        if diff.diffs:
            self.screen.diff(diff.text())
        if diff.new_files:
            self.screen.warn(self.t("demo.diff.new_files", files=", ".join(diff.new_files)))
        removed, added = changed_lines(diff.text())
        expected = (
            list(diff.diffs) == ["rules.py"]
            and not diff.new_files
            and removed == [BUGGY_LINE.rstrip("\n")]
            and added == [FIXED_LINE.rstrip("\n")]
        )
        if expected:
            self.screen.good(self.t("demo.verdict.expected"))
        elif not diff.unchanged:
            self.screen.warn(self.t("demo.verdict.unexpected"))

    def _verdict(self, ending: TestState) -> int:
        self.screen.section(self.t("demo.section.result"))
        if ending.green:
            self.screen.good(self.t("demo.result.green", summary=ending.summary))
            return EXIT_GREEN
        self.screen.bad(self.t("demo.result.red", summary=ending.summary))
        return EXIT_RED

    # -- the editor part -------------------------------------------------------------------------

    async def _fix(
        self, model: Model, failure: Failure
    ) -> tuple[Mapping[str, Any], list[Any], float]:
        self.screen.section(self.t("demo.section.editor"))
        async with self._editor(model) as editor:
            run_id = await self._ask_for_fix(editor, failure)
            self.screen.section(self.t("demo.section.run"))
            started = time.monotonic()
            finished = await self._wait(editor, run_id)
            seconds = time.monotonic() - started
            self.screen.info(self.t("demo.run.finished", status=finished.get("status")))
            usage = finished.get("usage")
            return (usage if isinstance(usage, Mapping) else {}), editor.log.rounds, seconds

    @contextlib.asynccontextmanager
    async def _editor(self, model: Model) -> AsyncIterator[DemoEditor]:
        """Start kesi-lsp over stdio as an editor does; shut it down politely afterwards."""
        editor = DemoEditor(self.screen, self.answers, self.locale)
        command = [sys.executable, "-m", "kesi_lsp"]
        # Its own session, as editors start language servers: Ctrl-C at the terminal reaches
        # the demo, which cancels the run properly, instead of killing the server mid-edit.
        await editor.start_io(
            *command,
            env=model.environment(os.environ, self.bin_dir),
            cwd=str(self.workdir),
            start_new_session=True,
        )
        drain = asyncio.ensure_future(_drain(editor, self.server_log))
        self.screen.note(self.t("demo.editor.server", log=self.server_log))
        polite = False
        try:
            await self._initialize(editor)
            yield editor
            await asyncio.wait_for(editor.shutdown_async(None), LSP_SECONDS)
            editor.exit(None)
            polite = True
        except (RuntimeError, TimeoutError, ConnectionError) as exc:
            raise DemoError(self.t("demo.error.server", error=exc, log=self.server_log)) from exc
        finally:
            await _stop_server(editor, EXIT_SECONDS if polite else 0.0)
            await drain

    async def _initialize(self, editor: DemoEditor) -> None:
        options: dict[str, Any] = {"locale": self.locale}
        if self.args.model:
            options["model"] = self.args.model
        params = types.InitializeParams(
            capabilities=capabilities(),
            process_id=os.getpid(),
            client_info=types.ClientInfo(name="kesi-lsp demo"),
            root_uri=self.project.as_uri(),
            workspace_folders=[
                types.WorkspaceFolder(uri=self.project.as_uri(), name=self.project.name)
            ],
            initialization_options={"kesi": options},
        )
        await asyncio.wait_for(editor.initialize_async(params), LSP_SECONDS)
        editor.initialized(types.InitializedParams())

    async def _ask_for_fix(self, editor: DemoEditor, failure: Failure) -> str:
        """Open the failing test, show pytest's failure as a diagnostic, pick "fix this"."""
        path = self.project / failure.file
        buffer = editor.open(path)
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
            editor.text_document_code_action_async(
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
        started = await asyncio.wait_for(
            editor.workspace_execute_command_async(
                types.ExecuteCommandParams(
                    command=fix.command.command, arguments=fix.command.arguments
                )
            ),
            LSP_SECONDS,
        )
        run_id = started.get("runId") if isinstance(started, Mapping) else None
        if not isinstance(run_id, str):
            raise DemoError(self.t("demo.error.server", error=started, log=self.server_log))
        self.screen.info(
            self.t("demo.editor.execute", title=fix.title, command=FIX_THIS, run=run_id)
        )
        return run_id

    async def _wait(self, editor: DemoEditor, run_id: str) -> dict[str, Any]:
        """Wait for the run's end. Past the timeout, or on Ctrl-C, cancel it the way the
        editor's Cancel button does (`kesi.cancel`) and wait for KeSi to wind down; a second
        Ctrl-C stops the demo at once."""
        try:
            return await editor.wait_finished(self.args.timeout)
        except TimeoutError:
            self.screen.bad(self.t("demo.run.timeout", seconds=f"{self.args.timeout:g}"))
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is None or task.uncancel() != 0:
                raise
            self.screen.bad(self.t("demo.run.interrupted"))
        await asyncio.wait_for(
            editor.workspace_execute_command_async(
                types.ExecuteCommandParams(command="kesi.cancel", arguments=[{"runId": run_id}])
            ),
            LSP_SECONDS,
        )
        return await editor.wait_finished(CANCEL_SECONDS)


async def _stop_server(editor: DemoEditor, grace: float) -> None:
    """Let the server exit by itself within `grace` seconds, else kill it; close the client."""
    server = editor._server
    if server is not None and server.returncode is None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(server.wait(), grace)
        if server.returncode is None:
            server.kill()
            await server.wait()
    await editor.stop()  # type: ignore[no-untyped-call]


async def _drain(editor: DemoEditor, log: Path) -> None:
    """Copy the server's stderr (its log) to a file, so the pipe never fills up."""
    server = editor._server
    if server is None or server.stderr is None:
        return
    with log.open("wb") as sink:
        while chunk := await server.stderr.read(65536):
            sink.write(chunk)
            sink.flush()


def _log_to(path: Path) -> logging.Handler:
    """The client libraries' own log (pygls, the SDK) goes to a file, not over the story."""
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    return handler


def _tty() -> bool:
    return sys.stdout.isatty()
