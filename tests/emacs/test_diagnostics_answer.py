"""kesi.el's answer to `kesi/diagnostics` (design §2.10), from flymake: each file's diagnostics
from every backend as LSP diagnostics with the backend's name as their source, KeSi's own notes
left out, how many reports the file had (`changes`), and an empty item for a file Emacs does
not visit. Batch Emacs is enough: flymake runs a backend that reports at once."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.emacs.harness import PACKAGE, elisp_string

pytestmark = [pytest.mark.editor]

LINTER = """(progn
(require 'eglot)
(require 'kesi-diagnostics)
(defun lint (report &rest _)
  "A linter: an error on `f', a warning on `pass', and a note KeSi wrote about its change."
  (funcall report
   (list (flymake-make-diagnostic (current-buffer) 5 6 :error "bad name")
         (flymake-make-diagnostic (current-buffer) 14 18 :warning "useless pass")
         (flymake-make-diagnostic
          (current-buffer) 1 4 :note "KeSi changed this"
          '((eglot-lsp-diag . (:source "KeSi" :message "KeSi changed this" :severity 3
                               :range (:start (:line 0 :character 0)
                                       :end (:line 0 :character 3))))))))))
"""


def answer(emacs: str, visited: Path, uris: list[str]) -> dict[str, object]:
    vector = " ".join(map(elisp_string, uris))
    code = (
        "(progn"
        f" (with-current-buffer (find-file-noselect {elisp_string(str(visited))})"
        "   (setq-local flymake-diagnostic-functions (list #'lint))"
        "   (flymake-mode 1) (flymake-start))"
        f" (princ (json-serialize (kesi-diagnostics-answer (vector {vector})))))"
    )
    done = subprocess.run(
        [emacs, "--batch", "-L", str(PACKAGE), "--eval", LINTER, "--eval", code],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


def test_flymake_answers_for_every_backend_without_kesis_own(
    emacs_bin: str, tmp_path: Path
) -> None:
    visited = tmp_path / "calc.py"
    visited.write_text("def f():\n    pass\n", encoding="utf-8")
    elsewhere = (tmp_path / "other.py").as_uri()
    got = answer(emacs_bin, visited, [visited.as_uri(), elsewhere])
    first, second = got["items"]  # type: ignore[misc]
    assert first == {
        "uri": visited.as_uri(),
        "diagnostics": [
            {
                "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 5}},
                "severity": 1,
                "message": "bad name",
                "source": "lint",
            },
            {
                "range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 8}},
                "severity": 2,
                "message": "useless pass",
                "source": "lint",
            },
        ],
        "changes": 1,
    }, first
    assert second == {"uri": elsewhere, "diagnostics": [], "changes": 0}, "not visited: nothing"
