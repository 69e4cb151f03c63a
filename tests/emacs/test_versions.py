"""An Emacs or eglot too old for KeSi gets one clear sentence, not a stack trace (issue 20).

Loading kesi.el only says what KeSi needs, what is installed and what to install; every
command then says the same sentence and does nothing else. Batch Emacs is enough here:
nothing of eglot runs. The too-old eglot is a stand-in `eglot.el` whose header says 1.7,
found first on `load-path` the way an old package would be.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.emacs.harness import PACKAGE

pytestmark = [pytest.mark.editor]


def run_emacs(emacs: str, args: list[str], site: bool = True) -> subprocess.CompletedProcess[str]:
    """`emacs --batch` (with Debian's site files unless not `site`) loading kesi.el."""
    base = [emacs, "--batch"] if site else [emacs, "--batch", "-Q"]
    return subprocess.run(
        [*base, "-L", str(PACKAGE), *args], capture_output=True, text=True, timeout=60
    )


TRY_A_COMMAND = [
    "--eval",
    "(progn (package-activate-all) (require 'kesi)"
    ' (condition-case err (kesi-fix-this) (user-error (message "command: %s" (cadr err)))))',
]


def test_an_old_eglot_gets_one_sentence(emacs_bin: str, tmp_path: Path) -> None:
    old = tmp_path / "old-eglot"
    old.mkdir()
    (old / "eglot.el").write_text(
        ";;; eglot.el --- an old eglot\n;; Version: 1.7\n(provide 'eglot)\n", encoding="utf-8"
    )
    done = run_emacs(emacs_bin, ["-L", str(old), *TRY_A_COMMAND])
    sentence = (
        "KeSi needs eglot 1.9 or newer; eglot 1.7 is installed: update it with "
        "M-x package-install RET eglot RET (Debian 12: apt install elpa-eglot)."
    )
    assert done.returncode == 0, done.stderr
    assert f"Warning (kesi): {sentence}" in done.stderr
    assert f"command: {sentence}" in done.stderr
    assert "Debugger entered" not in done.stderr and "error" not in done.stderr.lower()


def test_no_eglot_gets_one_sentence(emacs_bin: str) -> None:
    """`-Q`: no site files, so Debian's elpa-eglot is not on load-path (Emacs 28 has none)."""
    done = run_emacs(emacs_bin, TRY_A_COMMAND, site=False)
    if "Warning (kesi)" not in done.stderr:
        pytest.skip("this Emacs has eglot built in")
    sentence = (
        "KeSi needs eglot 1.9 or newer, and no eglot is installed: install it with "
        "M-x package-install RET eglot RET (Debian 12: apt install elpa-eglot)."
    )
    assert done.returncode == 0, done.stderr
    assert f"Warning (kesi): {sentence}" in done.stderr
    assert f"command: {sentence}" in done.stderr


def test_an_old_emacs_gets_one_sentence(emacs_bin: str) -> None:
    """Emacs 27.1, as kesi.el sees it when it loads."""
    done = run_emacs(
        emacs_bin,
        [
            "--eval",
            '(let ((emacs-version "27.1")) (require \'kesi))',
            "--eval",
            '(condition-case err (kesi-ask "hi") (user-error (message "command: %s" (cadr err))))',
        ],
    )
    sentence = (
        "KeSi needs Emacs 28.2 or newer with eglot 1.9 or newer; this is Emacs 27.1: install "
        "a newer Emacs (Debian 12: apt install emacs-nox elpa-eglot)."
    )
    assert done.returncode == 0, done.stderr
    assert f"Warning (kesi): {sentence}" in done.stderr
    assert f"command: {sentence}" in done.stderr


def test_debians_emacs_and_eglot_are_enough(emacs_bin: str) -> None:
    done = run_emacs(
        emacs_bin,
        [
            "--eval",
            "(progn (package-activate-all) (require 'kesi)"
            ' (message "problem: %S" (kesi-problem)))',
        ],
    )
    assert done.returncode == 0, done.stderr
    assert "problem: nil" in done.stderr, done.stderr
    assert "Warning (kesi)" not in done.stderr


def test_the_options_are_in_customize_group_kesi(emacs_bin: str) -> None:
    done = run_emacs(
        emacs_bin,
        [
            "--eval",
            "(progn (package-activate-all) (require 'kesi) (require 'kesi-eglot)"
            ' (message "group: %S"'
            " (mapcar (function car) (get (quote kesi) (quote custom-group)))))",
        ],
    )
    assert done.returncode == 0, done.stderr
    group = done.stderr.split("group: ", 1)[1]
    for option in (
        "kesi-program",
        "kesi-settings",
        "kesi-modes",
        "kesi-output-show",
        "kesi-review-style",
        "kesi-header",
        "kesi-tool-error",
    ):
        assert option in group, group


@pytest.mark.slow
def test_the_package_byte_compiles_without_a_warning(emacs_bin: str, tmp_path: Path) -> None:
    """What `package-vc-install` does to it, with every warning an error (a copy: no .elc
    files in the checkout)."""
    copy = tmp_path / "emacs"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("*.md", "scripts"))
    files = sorted(str(p) for p in copy.glob("*.el"))
    done = subprocess.run(
        [
            emacs_bin,
            "--batch",
            "-L",
            str(copy),
            "--eval",
            "(package-activate-all)",
            "--eval",
            "(setq byte-compile-error-on-warn t)",
            "-f",
            "batch-byte-compile",
            *files,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert all(Path(f + "c").exists() for f in files)
