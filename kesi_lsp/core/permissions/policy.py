"""Classify a shell command as deny, ask or allow (seed Day 14 `classify_command`).

The order is fixed and is the point: first the red line (`redline.py`: no answer can let it
through), then everything that needs a human (shell metacharacters, anything unreadable,
anything not on the short read-only list, git options that write or run programs, any path in
the ignore list or outside the workspace), and only then allow. When in doubt, ask.

Gaps the seed's own checklist left open and this module closes:
- `cat ~/.ssh/config`, `ls ~` and `cat ../x` were allowed (`~` was not expanded and only
  existing paths were checked): any `~` word, and any path that leaves the workspace, asks.
- `tail -f` ran until the time limit: following a file asks.
- `git diff --outp=x` (git accepts unique abbreviations of long options) slipped past the
  `--output` check; `git show HEAD:.env` read an ignored file from history: both ask.
- `date -s` (sets the clock) was allowed like `date`: options that change the system ask.
- invisible or control characters (a carriage return, a right-to-left override) make the
  command look different from what runs: ask.

`classify` reads the filesystem (to see where a path leads) but changes nothing.
"""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final, Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.paths import IGNORED_NAMES, IGNORED_PREFIX
from kesi_lsp.core.permissions.redline import Places, red_line
from kesi_lsp.core.permissions.shellwords import parse

VerdictKind = Literal["allow", "ask", "deny"]

SAFE_COMMANDS: Final = frozenset(
    {("ls",), ("pwd",), ("cat",), ("head",), ("tail",), ("wc",), ("echo",), ("which",)}
    | {("diff",), ("stat",), ("du",), ("date",)}
    | {("git", "status"), ("git", "log"), ("git", "diff"), ("git", "show")}
)
"""The seed's read-only list, kept deliberately short: better to ask a few times more."""

GIT_SENSITIVE_OPTIONS: Final = ("--output", "--ext-diff", "--textconv")
SHELL_METACHARS: Final = frozenset("$`<>(){}[]*?!\\\n")

_VISIBLE_SPACE: Final = frozenset(" \t\n")
_IGNORED_FOLDED: Final = frozenset(name.casefold() for name in IGNORED_NAMES)
_INVISIBLE_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp", "Zs"})


@dataclass(frozen=True)
class Verdict:
    """The policy's answer and the reason a human would want to read (in the session locale)."""

    kind: VerdictKind
    reason: str


def is_ignored_name(name: str) -> bool:
    """The ignore list, compared without case: on a case-insensitive disk (macOS, Windows)
    `cat .ENV` opens `.env`."""
    folded = name.casefold()
    return folded in _IGNORED_FOLDED or folded.startswith(IGNORED_PREFIX)


def classify(command: str, root: Path, home: Path, *, locale: Locale = "en") -> Verdict:
    """Judge `command` for a workspace `root` and a user whose home is `home` (both resolved)."""

    def ask(key: str, **fields: object) -> Verdict:
        return Verdict("ask", text(key, locale, **fields))

    places = Places(root, home)
    denial = red_line(command, places)
    if denial is not None:
        fields = {"command": denial.command} if denial.command else {}
        return Verdict("deny", text(denial.key, locale, **fields))
    if any(_invisible(char) for char in command):
        return ask("permissions.reason.invisible")
    if any(char in SHELL_METACHARS for char in command):
        return ask("permissions.reason.metachars")
    script = parse(command)
    if not script.commands:
        return ask("permissions.reason.empty")
    if not script.complete:
        return ask("permissions.reason.unparseable")
    for words in script.commands:
        tokens = [word.text for word in words]
        reason = _segment_question(tokens, places)
        if reason is not None:
            key, fields = reason
            return ask(key, **fields)
    return Verdict("allow", text("permissions.reason.read_only", locale))


def _invisible(char: str) -> bool:
    return char not in _VISIBLE_SPACE and unicodedata.category(char) in _INVISIBLE_CATEGORIES


def _segment_question(tokens: list[str], places: Places) -> tuple[str, dict[str, str]] | None:
    """Why one simple command needs a human, or None if it is read-only and stays inside."""
    if not any(tuple(tokens[: len(safe)]) == safe for safe in SAFE_COMMANDS):
        return "permissions.reason.not_listed", {"command": tokens[0]}
    name = tokens[0]
    options = _options(tokens[1:])
    if name == "git" and any(_git_sensitive(option) for option in options):
        return "permissions.reason.git_options", {}
    if name == "tail" and any(_follows(option) for option in options):
        return "permissions.reason.never_ends", {"command": " ".join(tokens)}
    if name == "date" and any(_sets_clock(option) for option in options):
        return "permissions.reason.changes_system", {"command": " ".join(tokens)}
    if any(touches_forbidden(raw, places) for raw in _path_words(tokens)):
        return "permissions.reason.forbidden_path", {}
    return None


def _options(args: Sequence[str]) -> list[str]:
    result: list[str] = []
    for arg in args:
        if arg == "--":
            break
        if arg.startswith("-") and arg != "-":
            result.append(arg)
    return result


def _long_prefix_of(option: str, names: Sequence[str]) -> bool:
    """`--outp=x` is `--output=x` to git and getopt_long: unique prefixes count."""
    if not option.startswith("--") or len(option) < 3:
        return False
    flag = option.split("=", 1)[0]
    return any(name.startswith(flag) for name in names)


def _git_sensitive(option: str) -> bool:
    return _long_prefix_of(option, GIT_SENSITIVE_OPTIONS)


def _short_flags(option: str, taking_value: str) -> str:
    """The letters of a short-option cluster, up to the first one that takes a value."""
    letters: list[str] = []
    for letter in option[1:]:
        letters.append(letter)
        if letter in taking_value:
            break
    return "".join(letters)


def _follows(option: str) -> bool:
    if option.startswith("--"):
        return _long_prefix_of(option, ("--follow",))
    flags = _short_flags(option, "cns")
    return "f" in flags or "F" in flags


def _sets_clock(option: str) -> bool:
    if option.startswith("--"):
        return _long_prefix_of(option, ("--set",))
    return "s" in _short_flags(option, "dfrIs")


def _path_words(tokens: list[str]) -> list[str]:
    """Every argument that may name a file: operands, `--opt=value` values, git `rev:path`."""
    words: list[str] = []
    options_done = False
    is_git = tokens[0] == "git"
    for token in tokens[1:]:
        if not options_done and token == "--":
            options_done = True
            continue
        if not options_done and token.startswith("-") and token != "-":
            if token.startswith("--") and "=" in token:
                words.append(token.split("=", 1)[1])
            elif is_git and token.startswith("-O") and len(token) > 2:
                words.append(token[2:])  # git diff -O<orderfile>
            continue
        words.append(token)
        if is_git and ":" in token:
            words.append(token.split(":", 1)[1])
    return words


def touches_forbidden(raw: str, places: Places) -> bool:
    """Tell whether a word names a path in the ignore list or outside the workspace.

    The seed's three tests stay: an ignored component as written (`.git/config` that does
    not exist yet), an existing path the fence refuses (a symlink out, `/etc/passwd`), and a
    path that resolves inside to an ignored place. Added: any `~` word, and any path that
    leaves the workspace even if it does not exist.
    """
    if not raw:
        return False
    if raw.startswith("~"):
        return True
    root = places.root
    candidate = root / raw
    lexical = Path(os.path.normpath(candidate))
    if not lexical.is_relative_to(root):
        return True
    written = PurePosixPath(raw)
    if written.is_absolute():  # only the part below the workspace: a project may live in ~/venv/
        written = PurePosixPath(os.path.normpath(raw)).relative_to(root)
    if any(is_ignored_name(part) for part in written.parts):
        return True
    try:
        resolved = candidate.resolve(strict=False)
        exists = candidate.exists() or candidate.is_symlink()
    except (OSError, RuntimeError, ValueError):
        return True
    if not resolved.is_relative_to(root):
        return True
    if exists:
        try:
            resolved = candidate.resolve(strict=True)
        except (OSError, RuntimeError, ValueError):
            return True  # a broken symlink or a loop: the fence would refuse it
    return any(is_ignored_name(part) for part in resolved.relative_to(root).parts)
