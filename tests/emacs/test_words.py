"""kesi.el words a search's and a summary's bill line as the server does for log clients (its
catalog's `lsp.log.bill.*`), in both locales: the stream carries only the figures, so the
package keeps a copy of those words, and this test keeps the copy true. Batch Emacs is enough:
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


def bill_lines(emacs: str, locale: str) -> list[str]:
    code = (
        "(progn (require 'kesi-stream)"
        f' (setq kesi-settings (list :locale "{locale}"))'
        f" (princ (concat (kesi-stream-bill-line 'search '{USAGE}) \"\\n\""
        f" (kesi-stream-bill-line 'compaction '{USAGE}) \"\\n\")))"
    )
    done = subprocess.run(
        [emacs, "--batch", "-L", str(PACKAGE), "--eval", code],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_bill_lines_are_the_servers_words(emacs_bin: str, locale: Locale) -> None:
    search, summary = bill_lines(emacs_bin, locale)
    # The server's log lines carry their indent; *kesi* indents them the same way.
    assert "    " + search == text("lsp.log.bill.search", locale, **FIGURES)
    assert "  " + summary == text("lsp.log.bill.compaction", locale, **FIGURES)
