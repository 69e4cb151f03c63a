"""What the demo shows of the sample project itself: its tests before and after KeSi's run,
the diff of every original file, and the verdict (the demo's exit status)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.demo.checks import Failure, TestState, changed_lines, diff_against, run_tests
from kesi_lsp.demo.errors import DemoError
from kesi_lsp.demo.project import BUGGY_LINE, FILES, FIXED_LINE
from kesi_lsp.demo.screen import Screen

EXIT_GREEN, EXIT_RED, EXIT_BROKEN = 0, 1, 2
VERDICTS = ("verified", "failed", "unverified")


class ProjectReport:
    """Runs the sample's tests with `python` and shows the results on `screen`."""

    def __init__(self, screen: Screen, locale: Locale, project: Path, python: Path) -> None:
        self.screen = screen
        self.locale = locale
        self.project = project
        self.python = python

    def t(self, key: str, **fields: object) -> str:
        return text(key, self.locale, **fields)

    def starting_failure(self) -> Failure:
        """The first failing test; the demo cannot go on if the sample is not red."""
        self.screen.section(self.t("demo.section.start"))
        state = self._tests()
        if state.green or not state.failures:
            raise DemoError(self.t("demo.error.not_red", summary=state.summary or state.output))
        return state.failures[0]

    def ending_state(self) -> TestState:
        self.screen.section(self.t("demo.section.end"))
        return self._tests()

    def _tests(self) -> TestState:
        self.screen.info(self.t("demo.tests.command"))
        state = run_tests(self.project, self.python)
        show = self.screen.good if state.green else self.screen.bad
        show(self.t("demo.tests.result", code=state.exit_code, summary=state.summary))
        for f in state.failures:
            self.screen.note(
                self.t(
                    "demo.tests.failure", file=f.file, test=f.test, message=f.message, line=f.line
                )
            )
        return state

    def show_diff(self) -> None:
        """Every original file against the sample, and whether it is the expected one-liner."""
        self.screen.section(self.t("demo.section.diff"))
        diff = diff_against(self.project, FILES)
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

    def verdict(self, ending: TestState, verified: Mapping[str, Any] | None = None) -> int:
        """The ending section: KeSi's own verdict on its change (the server's, from what
        really ran), then the demo's (the sample's tests), which is the exit status."""
        self.screen.section(self.t("demo.section.result"))
        if verified is None:
            self.screen.note(self.t("demo.result.no_verdict"))
        else:
            status = str(verified.get("status"))
            word = self.t(f"verify.status.{status}") if status in VERDICTS else status
            said = self.t("demo.result.verdict", status=word, detail=verified.get("detail"))
            (self.screen.good if status == "verified" else self.screen.warn)(said)
        if ending.green:
            self.screen.good(self.t("demo.result.green", summary=ending.summary))
            return EXIT_GREEN
        self.screen.bad(self.t("demo.result.red", summary=ending.summary))
        return EXIT_RED
