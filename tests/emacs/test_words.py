"""kesi.el words a search's and a summary's bill line as the server does for log clients (its
catalog's `lsp.log.bill.*`), and the plan's head and step in progress (`plan.line`,
`plan.step`), and the verdict's word for a server that sends only its status
(`verify.status.*`), in both locales: the stream carries only the figures and the items, so
the package keeps a copy of those words, and this test keeps the copy true. Batch Emacs is enough:
the words are a pure function of the figures and `kesi-settings`."""

from __future__ import annotations

import subprocess

import pytest

from kesi_lsp.catalog import Locale, text
from tests.emacs.harness import PACKAGE

pytestmark = [pytest.mark.editor]

USAGE = (
    "(:requests 3 :inputTokens 1234567 :outputTokens 890 :cacheReadTokens 17003"
    " :cacheWriteTokens 0 :costUsd 0.01234)"
)
FIGURES = {
    "requests": "3",
    "input": "1,234,567",
    "read": "17,003",
    "write": "0",
    "output": "890",
    "cost": "0.0123",
}


def printed(emacs: str, locale: str, forms: str) -> list[str]:
    """The lines FORMS (elisp returning a list of strings) print in LOCALE."""
    code = (
        "(progn (require 'kesi-stream)"
        f' (setq kesi-settings (list :locale "{locale}"))'
        f' (princ (mapconcat (lambda (s) (concat s "\\n")) {forms} "")))'
    )
    done = subprocess.run(
        [emacs, "--batch", "-L", str(PACKAGE), "--eval", code],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def bill_lines(emacs: str, locale: str) -> list[str]:
    return printed(
        emacs,
        locale,
        f"(list (kesi-stream-bill-line 'search '{USAGE})"
        f" (kesi-stream-bill-line 'compaction '{USAGE}))",
    )


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_bill_lines_are_the_servers_words(emacs_bin: str, locale: Locale) -> None:
    search, summary = bill_lines(emacs_bin, locale)
    # The server's log lines carry their indent; *kesi* indents them the same way.
    assert "    " + search == text("lsp.log.bill.search", locale, **FIGURES)
    assert "  " + summary == text("lsp.log.bill.compaction", locale, **FIGURES)


ITEMS = (
    '(list (list :content "Read calc.py" :status "completed")'
    ' (list :content "Fix the sign" :status "in_progress")'
    ' (list :content "Run the tests" :status "pending"))'
)


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_plan_and_the_verdict_are_the_servers_words(emacs_bin: str, locale: Locale) -> None:
    head, step, *verdicts = printed(
        emacs_bin,
        locale,
        f"(list (car (kesi-plan-lines {ITEMS})) (kesi-plan-step {ITEMS})"
        ' (kesi-plan-verdict (list :status "verified"))'
        ' (kesi-plan-verdict (list :status "failed"))'
        ' (kesi-plan-verdict (list :status "unverified"))'
        ' (kesi-plan-verdict (list :status "failed" :text "the server\'s own")))',
    )
    # The head of the plan is the server's plan line without its steps.
    line = text("plan.line", locale, done=1, total=3, steps="STEPS")
    assert line.removeprefix(head) in (": STEPS", "：STEPS"), (head, line)
    assert step == text("plan.step", locale, number=2, total=3, content="Fix the sign")
    statuses = [text(f"verify.status.{s}", locale) for s in ("verified", "failed", "unverified")]
    assert verdicts == [*statuses, "the server's own"]
