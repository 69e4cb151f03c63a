"""Classify a shell command as deny, ask or allow (seed Day 14 `classify_command`).

The order is fixed and is the point: first the red line (`redline.py`: no answer can let it
through), then everything that needs a human, and only then allow. When in doubt, ask:

- anything the shell would read differently from the text: invisible or control characters,
  text the reader cannot finish, operators the shell would refuse (`ls &&`, `ls | | wc`: never
  auto-allowed), and shell features whose effect goes beyond the words: substitutions,
  variables, globs, redirections, subshells, unquoted newlines. Quoting counts: in
  `echo '$(pwd)'` nothing expands, so it is just `echo` (the seed asked on any `$`);
- any program not on the read-only list (`readonly.py`, `gitsafe.py`), or one given an option
  that writes, runs a program, changes the system or never ends;
- any word that may name a file in the ignore list or outside the workspace, including values
  glued to options and git's path forms; any folder whose contents a program reads when it
  holds ignore-listed files (unless a working sandbox masks them: `secrets_masked`);
- a read-only program the workspace's own virtualenv would shadow (`.venv/bin/ls` comes first
  on PATH for commands).

An allowed command may run as a different text than the model wrote: git with its configured
programs turned off, sed with `--sandbox` (`CommandVerdict.command`). `classify` reads the
filesystem (and asks sed once whether it knows `--sandbox`) but changes nothing.
"""

from __future__ import annotations

import re
import shlex
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.permissions import gitsafe
from kesi_lsp.core.permissions.gitconfig import object_types, ref_names
from kesi_lsp.core.permissions.gitrun import neutralized
from kesi_lsp.core.permissions.pathcheck import (
    folder_holds_closed,
    is_ignored_name,
    touches_forbidden,
)
from kesi_lsp.core.permissions.readonly import (
    PROGRAMS,
    Arguments,
    find_arguments,
    read_arguments,
)
from kesi_lsp.core.permissions.redline import Places, red_line
from kesi_lsp.core.permissions.rgsearch import closed_folder
from kesi_lsp.core.permissions.sedrun import sandbox_supported, sandboxed
from kesi_lsp.core.permissions.shellwords import Script, Word, parse
from kesi_lsp.core.sandbox.toolchain import VENV_NAMES

__all__ = ["SAFE_COMMANDS", "CommandVerdict", "classify", "is_ignored_name", "touches_forbidden"]

VerdictKind = Literal["allow", "ask", "deny"]

SAFE_COMMANDS: Final = frozenset(
    {(name,) for name in PROGRAMS}
    | {("find",), ("python", "--version")}
    | {("git", sub) for sub in gitsafe.READ_ONLY}
)
"""The read-only list: programs, git's read-only subcommands, and Python's version."""

PYTHON: Final = re.compile(r"python(\d+(\.\d+)?)?")
VERSION_ONLY: Final = frozenset({"--version", "-V", "-VV"})
"""`python --version`, `python3 -V`, `python3.12 -VV`: it prints its version before reading
any code, its startup file or its `site` folder (any other word asks)."""

SHELL_OPERATORS_ASKED: Final = frozenset({"(", ")", "\n", "|&"})
_VISIBLE_SPACE: Final = frozenset(" \t\n")
_INVISIBLE_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp", "Zs"})


@dataclass(frozen=True)
class CommandVerdict:
    """The policy's answer and the reason a human would want to read (in the session locale).

    `command`: for an allowed command that runs as another text (git with its configured
    programs turned off, sed with `--sandbox`), that text; None when it runs as written.
    """

    kind: VerdictKind
    reason: str
    command: str | None = None
    by: Literal["classifier", "red_line", "rule"] = "classifier"
    """Who judged: the classifier, the red line, or one of the user's rules (the audit log)."""


def classify(
    command: str,
    root: Path,
    home: Path,
    *,
    locale: Locale = "en",
    secrets_masked: bool = False,
    script: Script | None = None,
) -> CommandVerdict:
    """Judge `command` for a workspace `root` and a user whose home is `home` (both resolved).

    `secrets_masked`: a working sandbox hides the ignore list's secrets from commands, so a
    program may read folders that hold them (design §3). `script`: `command` as `parse` reads
    it, when the caller (the gate) has read it already; the red line, the checks below and the
    rewriting of what runs all use that one reading.
    """

    def ask(key: str, **fields: object) -> CommandVerdict:
        return CommandVerdict("ask", text(key, locale, **fields))

    places = Places(root, home)
    script = parse(command) if script is None else script
    denial = red_line(script, places)
    if denial is not None:
        fields = {"command": denial.command} if denial.command else {}
        return CommandVerdict("deny", text(denial.key, locale, **fields), by="red_line")
    if any(_invisible(char) for char in command):
        return ask("permissions.reason.invisible")
    if not script.commands:
        return ask("permissions.reason.empty")
    if not script.complete:
        return ask("permissions.reason.unparseable")
    if not script.valid:
        return ask("permissions.reason.unparseable")
    if shell_features(script):
        return ask("permissions.reason.metachars")
    rewrite = False
    for words in script.commands:
        tokens = [word.text for word in words]
        reason = _segment_question(tokens, places, secrets_masked)
        if reason is not None:
            key, fields = reason
            return ask(key, **fields)
        rewrite = rewrite or _runs_differently(tokens[0])
    actual = _neutralized(script, places) if rewrite else None
    return CommandVerdict("allow", text("permissions.reason.read_only", locale), actual)


def _invisible(char: str) -> bool:
    return char not in _VISIBLE_SPACE and unicodedata.category(char) in _INVISIBLE_CATEGORIES


def shell_features(script: Script) -> bool:
    """Substitutions, variables, globs, braces, redirections, subshells: beyond the words."""
    if script.redirects or script.operators & SHELL_OPERATORS_ASKED:
        return True
    return any(w.dynamic or w.globbing or w.special for words in script.commands for w in words)


Question = tuple[str, dict[str, str]]


def _segment_question(tokens: list[str], places: Places, masked: bool) -> Question | None:
    """Why one simple command needs a human, or None if it is read-only and stays inside."""
    name = tokens[0]
    read = _read(tokens, places)
    if isinstance(read, tuple):
        return read
    shadow = _shadowed(name, places.root)
    if shadow is not None:
        return "permissions.reason.shadowed", {"command": name, "path": shadow}
    if any(touches_forbidden(raw, places) for raw in read.paths):
        return "permissions.reason.forbidden_path", {}
    folder = None if masked else _closed_folder(tokens, read, places)
    if folder is not None:
        return "permissions.reason.folder_holds_closed", {"folder": folder}
    if read.revisions:
        types = object_types(places.root, places.home, read.revisions)
        blob = next((rev for rev in read.revisions if types.get(rev) == "blob"), None)
        if blob is not None:
            return "permissions.reason.git_blob", {"revision": blob}
    return None


def _closed_folder(tokens: list[str], read: Arguments, places: Places) -> str | None:
    """The first folder the command reads the contents of that holds a closed file. ripgrep is
    asked what it will search (`rgsearch.py`); the policy's own walk is the fallback."""
    if tokens[0] == "rg":
        folders = [folder for folder in read.folders if (places.root / folder).is_dir()]
        found = closed_folder(tokens[1:], folders, places)
        if found is not None:
            return found or None
    for folder in read.folders:
        closed = folder_holds_closed(
            folder,
            places,
            hidden_ok=read.hidden_ok,
            reveals=read.reveals,
            ignore_files=read.ignore_files,
        )
        if closed:
            return folder
    return None


def _read(tokens: list[str], places: Places) -> Arguments | Question:
    """The words of one simple command to check, or why it asks without looking further."""
    name, root, home = tokens[0], places.root, places.home
    if name == "git":
        check = gitsafe.check(tokens, repository=gitsafe.in_work_tree(root))
        if check.question is not None:
            words = gitsafe.command_words(tokens)
            return check.question, {"command": " ".join(words[:2])}
        revisions = check.revisions + (ref_names(root, home) if check.all_refs else [])
        return Arguments(paths=check.paths, folders=check.folders, revisions=revisions)
    if name == "find":
        found = find_arguments(tokens[1:])
        if found.question is not None:
            key, option = found.question
            return key, {"command": name, "option": option}
        return Arguments(paths=found.paths)
    if PYTHON.fullmatch(name) and len(tokens) == 2 and tokens[1] in VERSION_ONLY:
        return Arguments()
    if name in PROGRAMS:
        strict = name == "sed" and not sandbox_supported()
        read = read_arguments(name, tokens[1:], strict_scripts=strict)
        if read.question is not None:
            key, option = read.question
            return key, {"command": " ".join(tokens), "option": option}
        return read
    return "permissions.reason.not_listed", {"command": name}


def _shadowed(name: str, root: Path) -> str | None:
    """The workspace venv's own program of that name (commands run with its bin first)."""
    for venv in VENV_NAMES:
        folder = root / venv / "bin"
        try:
            entries = [entry.name for entry in folder.iterdir()] if folder.is_dir() else []
        except OSError:
            continue
        for entry in entries:
            if entry.casefold() == name.casefold() and not _base_interpreter(folder / entry, root):
                return f"{venv}/bin/{entry}"
    return None


def _base_interpreter(entry: Path, root: Path) -> bool:
    """A venv's `python` that is a link to an interpreter outside the workspace (what `python -m
    venv` makes): `python --version` through it is that interpreter's."""
    try:
        target = entry.resolve(strict=True)
    except (OSError, RuntimeError):
        return False
    inside = target.is_relative_to(root)
    return entry.is_symlink() and not inside and PYTHON.fullmatch(target.name) is not None


def _runs_differently(name: str) -> bool:
    """Whether an allowed `name` runs as another text than written (`_neutralized`)."""
    return name in ("git", "rg") or (name == "sed" and sandbox_supported())


def _neutralized(script: Script, places: Places) -> str:
    """The allowed command with every git in it run as `gitrun.neutralized` says, and every
    sed with `--sandbox` where sed knows it (`sedrun.py`)."""
    parts: list[str] = []
    segment: list[str] = []

    def flush() -> None:
        if segment:
            words = segment
            if words[0] == "git":
                words = neutralized(words, places.root, places.home)
            elif words[0] == "sed" and sandbox_supported():
                words = sandboxed(words)
            elif words[0] == "rg":
                words = [words[0], "--no-config", *words[1:]]
            parts.append(shlex.join(words))
            segment.clear()

    for token in script.tokens:
        if isinstance(token, Word):
            segment.append(token.text)
        else:
            flush()
            parts.append(token)
    flush()
    return _join(parts)


def _join(parts: list[str]) -> str:
    out = ""
    for part in parts:
        if part in (";", "&"):
            out += part
        else:
            out += (" " if out else "") + part
    return out
