"""The red line (seed Day 14 `hard_denial_reason`): commands no answer can let through.

The seed denied privilege escalation and removing the filesystem root or a home directory
(`removal.py` has the spellings). Design §3 adds what cannot be taken back (`irreversible.py`:
disk devices, new filesystems, kernel modules, setuid bits, overwriting system files) and
makes the names case-blind: on macOS' case-insensitive disk `SUDO` is `sudo` and `RM` is `rm`.
The same checks run behind every wrapper the seed did not unwrap (`wrappers.py`) and behind a
command name the shell computes at run time (`$(echo rm) -rf /`), and on every output
redirection (`> /dev/sda`, `>> /etc/passwd`).

The red line catches accidents, not attackers: variants cannot all be listed. The real defence
is the short allow-list and the question to the human (and, under it, the sandbox).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath
from typing import Final

from kesi_lsp.core.permissions.computed import assignments, possible_names
from kesi_lsp.core.permissions.irreversible import irreversible, redirect_denial
from kesi_lsp.core.permissions.removal import (
    REMOVES_ROOT,
    REMOVES_SYSTEM_DIR,
    ROOT_TARGETS,
    SYSTEM_FILES,
    Denial,
    Places,
    expand,
    moved_away,
    operands,
    removal,
    target_denial,
)
from kesi_lsp.core.permissions.shellwords import Script, Word, parse
from kesi_lsp.core.permissions.wholesystem import fork_bomb
from kesi_lsp.core.permissions.wrappers import SHELL_COMMANDS, SPECIAL, WRAPPERS, Judges

__all__ = [
    "REMOVES_ROOT",
    "REMOVES_SYSTEM_DIR",
    "ROOT_TARGETS",
    "SHELL_COMMANDS",
    "SYSTEM_FILES",
    "Denial",
    "Places",
    "red_line",
    "target_denial",
]

ESCALATION_COMMANDS: Final = frozenset(
    {"sudo", "su", "doas", "pkexec", "sudoedit", "run0", "runuser", "ksu", "calife"}
)
"""The seed's `sudo su doas`, plus the other common ways to become root."""

REMOVAL_COMMANDS: Final = frozenset({"rm", "rmdir", "shred", "srm", "unlink"})
RESERVED_WORDS: Final = frozenset(
    {"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"}
    | {"case", "esac", "for", "select", "in", "function", "coproc"}
)
MAX_DEPTH: Final = 24
"""Recursion guard: about twelve levels of `sh -c` / `eval` / wrappers inside each other."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")


def red_line(script: Script, places: Places) -> Denial | None:
    """Return why the command read as `script` (`shellwords.parse`, done once by the gate) must
    never run, or None when the red line has nothing to say."""
    if places.workspace is None:
        places = replace(places, workspace=places.root)
    return _judge_script(script, places, 0)


def _judge_script(script: Script, places: Places, depth: int) -> Denial | None:
    bomb = fork_bomb(script)
    if bomb is not None:
        return bomb
    places = replace(places, variables=places.variables | assignments(script.commands))
    seen = [places]
    for words in script.commands:
        places = _after_cd(words, places)
        seen.append(places)
        denial = _judge(list(words), places, depth)
        if denial:
            return denial
    for op, target in script.redirects:  # judged from every directory a `cd` may have reached
        denial = next((d for p in seen if (d := redirect_denial(op, target, p))), None)
        if denial:
            return denial
    return None


def _after_cd(words: Sequence[Word], places: Places) -> Places:
    """Follow `cd DIR` so that `cd / && rm -rf *` is judged where it really runs.

    Every `cd` in the text counts, even one in a subshell or a branch that may not run: the red
    line may only err towards denying.
    """
    while words and words[0].text in RESERVED_WORDS:
        words = words[1:]
    if not words or words[0].text.casefold() not in ("cd", "pushd"):
        return places
    found = operands(words[1:])
    target = expand(found[0].text, places) if found else str(places.home)
    if not target or target == "-":
        return places
    where = Path("/" + os.path.normpath(str(places.root / target)).lstrip("/"))
    return replace(places, root=where)


def _judge_text(text: str, places: Places, depth: int) -> Denial | None:
    if depth > MAX_DEPTH:
        return None
    return _judge_script(parse(text), places, depth + 1)


def _command_words(words: list[Word]) -> list[Word]:
    """Drop what precedes the command name: reserved words, `NAME=value`, `function NAME`."""
    while words:
        first = words[0].text
        if first == "function":
            words = words[2:]
        elif first in RESERVED_WORDS or _NAME.match(first):
            words = words[1:]
        else:
            break
    return words


def command_name(text: str) -> str:
    """The name to compare: the base name, case-folded (on macOS' disk `SUDO` is `sudo`).
    Look-alikes (`ｓｕｄｏ`) are other names to the shell: they ask, as round one decided."""
    return PurePosixPath(text).name.casefold()


def _judge(words: list[Word], places: Places, depth: int) -> Denial | None:
    """Judge one simple command, unwrapping wrappers until the real command shows."""
    if depth > MAX_DEPTH:
        return None
    words = _command_words(words)
    if not words:
        return None
    head, args = words[0], words[1:]
    if head.dynamic:
        # The shell computes the command name: what it may become, and the worst it removes.
        for name in possible_names(head.text, places.variables):
            computed = parse(name).commands
            if computed and not _same(computed[0], head):
                denial = _judge([*computed[0], *args], places, depth + 1)
                if denial:
                    return denial
        return removal(args, places)
    shown = PurePosixPath(head.text).name
    name = command_name(head.text)
    if name in ESCALATION_COMMANDS:
        return Denial("permissions.reason.escalation", shown)
    if name in REMOVAL_COMMANDS:
        return removal(args, places)
    denial = moved_away(name, args, places)
    if denial is not None:
        return denial
    denial = irreversible(name, shown, args, places)
    if denial is not None:
        return denial
    special = SPECIAL.get(name)
    if special is not None:
        return special(args, places, depth + 1, _JUDGES)
    unwrap = WRAPPERS.get(name)
    if unwrap is not None:
        inner = unwrap(args)
        return _judge(inner, places, depth + 1) if inner else None
    return None


def _same(words: tuple[Word, ...], head: Word) -> bool:
    return len(words) == 1 and words[0].text == head.text  # `S=$S`: no progress


_JUDGES: Final = Judges(words=_judge, text=_judge_text, script=_judge_script)
