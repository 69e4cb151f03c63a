"""`toolInput` in `*kesi*` (issue 31 item 6): a call whose input is still arriving shows the
server's progress line in place, each report replacing the last, and the call's own line then
replaces it. Pure buffer work, so a batch Emacs is enough (no terminal, no server)."""

from __future__ import annotations

import subprocess
from pathlib import Path

EMACS_DIR = Path(__file__).resolve().parents[2] / "editors/emacs"

SCRIPT = """
(progn
  (require 'kesi-stream)
  (defun ev (&rest params) (kesi-stream-event nil (append (list :runId "r") params)))
  (defun shown () (with-current-buffer (kesi-output-buffer)
                    (cdr (split-string (buffer-substring-no-properties (point-min) (point-max))
                                       "\\n" t))))
  (ev :kind "text" :text "Writing it.")
  (dolist (size '("1 KB" "4 KB" "12 KB"))
    (ev :kind "toolInput" :toolUseId "u" :tool "write_file" :received 1
        :line (format "[write · %s]" size) :lines [])
    (princ (format "%S\\n" (shown))))
  (ev :kind "toolStart" :toolUseId "u" :tool "write_file" :lines (list "[write]"))
  (princ (format "%S\\n" (shown))))
"""


def test_a_calls_arriving_input_shows_in_place_then_its_line(emacs_bin: str) -> None:
    done = subprocess.run(
        [emacs_bin, "--batch", "-Q", "-L", str(EMACS_DIR), "--eval", SCRIPT],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert done.stdout.splitlines() == [
        '("Writing it." "[write · 1 KB]")',
        '("Writing it." "[write · 4 KB]")',
        '("Writing it." "[write · 12 KB]")',
        '("Writing it." "[write]")',
    ], done.stdout + done.stderr
