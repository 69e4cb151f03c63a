"""`kesi-lsp demo`: build the sample project, be its editor, let KeSi fix it, show the result.

The order follows the seed's Day 13 harness: the starting test state, the process (streamed
text, tool lines, prompts and answers, diffs), the ending test state, the diff of every
original file against the sample, and the bill. Exit status 0 means the tests ended green;
1 that they did not; 2 that the demo itself could not run.

The parts: `model.py` (real API or recorded run), `outcome.py` (the sample's tests, diff and
verdict), `fixing.py` (KeSi in the demo editor), `bill.py` (what it cost).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import shutil
import sys
import tempfile
from pathlib import Path

from kesi_lsp.catalog import Locale, text
from kesi_lsp.demo.answers import Answers, answers_for
from kesi_lsp.demo.bill import show_bill
from kesi_lsp.demo.checks import pytest_available
from kesi_lsp.demo.errors import DemoError
from kesi_lsp.demo.fixing import FixRun
from kesi_lsp.demo.model import Model, open_model
from kesi_lsp.demo.outcome import EXIT_BROKEN, ProjectReport
from kesi_lsp.demo.project import build
from kesi_lsp.demo.sample_venv import make_sample_venv, python_in
from kesi_lsp.demo.screen import Screen, screen_for


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
        report = ProjectReport(self.screen, self.locale, self.project, python_in(self.bin_dir))
        args = self.args
        with open_model(args.model, args.recorded, args.pace, self.locale) as model:
            self._banner(model)
            failure = report.starting_failure()
            fixed = await self._fix_run().fix(model, failure)
        ending = report.ending_state()
        report.show_diff()
        self.screen.section(self.t("demo.section.bill"))
        key = "demo.bill.recorded" if model.recorded else "demo.bill.live"
        who = self.t(key, model=model.name)
        show_bill(self.screen, fixed.usage, fixed.rounds, fixed.seconds, who, self.locale)
        return report.verdict(ending, fixed.verified)

    def _fix_run(self) -> FixRun:
        return FixRun(
            screen=self.screen,
            answers=self.answers,
            locale=self.locale,
            project=self.project,
            workdir=self.workdir,
            server_log=self.server_log,
            bin_dir=self.bin_dir,
            model_option=self.args.model,
            timeout=self.args.timeout,
        )

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


def _log_to(path: Path) -> logging.Handler:
    """The client libraries' own log (pygls, the SDK) goes to a file, not over the story."""
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(logging.WARNING)
    return handler
