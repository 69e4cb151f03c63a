"""Which shell commands check code: tests, builds, type checkers, linters.

Verification (`kesi_lsp.core.verification.tracker`) counts a command only when its exit code says
something about the code: `pytest -q` exiting 0 does, `ls` exiting 0 does not. The command is
read with the permission policy's shell reader, and the *last* simple command must be the
check, because its exit code is the one the shell reports: in `pytest | tail -5` or
`pytest || true` the status is tail's or true's, and a failing suite would look green.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Final

from kesi_lsp.core.permissions.shellwords import Word, parse

_ANY: Final = frozenset({"*"})

CHECKERS: Final[dict[str, frozenset[str]]] = {
    # program: the subcommands that check ("*": the program checks whatever it is given)
    **dict.fromkeys(
        (
            "pytest",
            "py.test",
            "tox",
            "nox",
            "mypy",
            "pyright",
            "basedpyright",
            "pylint",
            "flake8",
            "pyflakes",
            "jest",
            "vitest",
            "mocha",
            "ava",
            "tsc",
            "eslint",
            "rspec",
            "phpunit",
            "ctest",
            "shellcheck",
            "golangci-lint",
            "unittest",
            "bats",
            "pytest-3",
        ),
        _ANY,
    ),
    "ruff": frozenset({"check"}),
    "cargo": frozenset({"test", "build", "check", "clippy", "nextest"}),
    "go": frozenset({"test", "build", "vet"}),
    "npm": frozenset({"test", "t", "run", "run-script"}),
    "pnpm": frozenset({"test", "t", "run", "lint", "build", "typecheck"}),
    "yarn": frozenset({"test", "run", "lint", "build", "typecheck"}),
    "bun": frozenset({"test", "run"}),
    "deno": frozenset({"test", "check", "lint"}),
    "make": frozenset({"", "test", "tests", "check", "build", "lint", "all", "typecheck"}),
    "gmake": frozenset({"", "test", "tests", "check", "build", "lint", "all"}),
    "just": frozenset({"test", "tests", "check", "build", "lint"}),
    "ninja": frozenset({"", "test", "check", "all"}),
    "gradle": frozenset({"test", "build", "check"}),
    "gradlew": frozenset({"test", "build", "check"}),
    "mvn": frozenset({"test", "verify", "package", "compile"}),
    "dotnet": frozenset({"test", "build"}),
    "swift": frozenset({"test", "build"}),
    "rake": frozenset({"test", "spec"}),
    "mix": frozenset({"test", "compile"}),
}
PYTHON_MODULES: Final = frozenset(
    {
        "pytest",
        "unittest",
        "mypy",
        "pyright",
        "pylint",
        "flake8",
        "compileall",
        "doctest",
        "tox",
        "nox",
        "pyflakes",
    }
)
SCRIPTS: Final = frozenset({"test", "tests", "build", "lint", "check", "typecheck", "type-check"})
_PYTHON = re.compile(r"python(\d+(\.\d+)?)?$")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
WRAPPERS: Final = frozenset({"env", "time", "nice", "nohup", "command", "xvfb-run"})
"""Programs that run the rest of their words (after their own options)."""
RUNNERS: Final = frozenset({"uv", "poetry", "pipenv", "pdm", "hatch", "rye"})
"""`uv run pytest`: programs whose `run` subcommand runs the rest."""


def _skip_options(words: list[str]) -> list[str]:
    while words and words[0].startswith("-"):
        words = words[1:]
    return words


def _unwrap(words: list[str]) -> list[str] | None:
    """The words without one leading assignment or wrapper; None when there is none."""
    head = posixpath.basename(words[0])
    if _ASSIGNMENT.match(words[0]):
        return words[1:]
    if head in WRAPPERS:
        return _skip_options(words[1:])
    if head == "timeout":
        return _skip_options(words[1:])[1:]  # and its duration
    if head in RUNNERS and len(words) > 2 and words[1] == "run":
        return words[2:]
    if head in ("npx", "bunx", "pnpx"):
        return _skip_options(words[1:])
    if head == "bundle" and len(words) > 2 and words[1] == "exec":
        return words[2:]
    return None


def _words(command: Sequence[Word]) -> list[str]:
    """The words of one simple command, past variable assignments and wrappers."""
    words: list[str] | None = [w.text for w in command]
    while words:
        inner = _unwrap(words)
        if inner is None:
            return words
        words = inner
    return []


def _first_argument(words: Sequence[str]) -> str:
    """The first word after the program that is not an option ("" when there is none)."""
    return next((w for w in words[1:] if not w.startswith("-")), "")


def _python_check(words: Sequence[str]) -> bool:
    for i, word in enumerate(words[1:-1], 1):
        if word == "-m":
            module = words[i + 1]
            if module == "ruff":
                return _first_argument(words[i + 1 :]) == "check"
            return module in PYTHON_MODULES
    return False


def _formatter_check(program: str, words: Sequence[str]) -> bool:
    if program in ("black", "isort", "prettier"):
        return "--check" in words
    if program == "ruff" and _first_argument(words) == "format":
        return "--check" in words
    return False


def is_check_words(words: Sequence[str]) -> bool:
    """Whether this simple command (assignments and wrappers already removed) checks code."""
    if not words:
        return False
    program = posixpath.basename(words[0])
    if _PYTHON.match(program):
        return _python_check(words)
    if _formatter_check(program, words):
        return True
    wanted = CHECKERS.get(program)
    if wanted is None:
        return False
    if wanted is _ANY:
        return True
    sub = _first_argument(words)
    if program in ("npm", "pnpm", "yarn", "bun") and sub in ("run", "run-script"):
        return _first_argument(words[words.index(sub) :]) in SCRIPTS
    if program == "yarn" and sub not in wanted:
        return sub in SCRIPTS
    return sub in wanted


def is_check(command: str) -> bool:
    """Whether `command`'s exit code is that of a test, build, type check or lint."""
    script = parse(command)
    if not script.complete or not script.commands:
        return False
    return is_check_words(_words(script.commands[-1]))
