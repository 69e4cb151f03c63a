"""The red line (seed Day 14 `hard_denial_reason`): commands no answer can let through.

Two things are denied outright: privilege escalation, and removing the filesystem root or a home
directory (the seed's spellings: `/`, `/*`, `~`, `$HOME`, `${HOME}/*`, `/root`, the real home
path, and anything that resolves to them, such as `//`, `/.` or `../..`). This module also
denies what the seed's checklist admitted it missed: removing an ancestor of home or a top-level
directory such as `/usr`, and the same removals hidden behind a wrapper the seed did not unwrap
(`timeout`, `xargs`, `find -exec`/`-delete`, `nice`, `exec`, `eval`, `env -S`, `watch`,
`busybox`, shells nested up to the reader's limit) or behind a command name the shell computes
at run time (`$(echo rm) -rf /`).

The red line catches accidents, not attackers: variants cannot all be listed. The real defence
is the short allow-list and the question to the human (and, under it, the sandbox).
"""

from __future__ import annotations

import os
import pwd
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

from kesi_lsp.core.permissions.shellwords import Script, Word, parse

ESCALATION_COMMANDS: Final = frozenset({"sudo", "su", "doas", "pkexec", "sudoedit", "run0"})
"""The seed's `sudo su doas`, plus the other common ways to become root."""

REMOVAL_COMMANDS: Final = frozenset({"rm", "rmdir", "shred", "srm"})
SHELL_COMMANDS: Final = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish"}
)
RESERVED_WORDS: Final = frozenset(
    {"!", "{", "}", "if", "then", "else", "elif", "fi", "do", "done", "while", "until"}
    | {"case", "esac", "for", "select", "in", "function", "coproc"}
)
ROOT_TARGETS: Final = frozenset(
    {"/", "/*", "~", "~/", "~/*", "$HOME", "$HOME/", "$HOME/*", "${HOME}", "${HOME}/"}
    | {"${HOME}/*", "/root"}
)
MAX_DEPTH: Final = 24
"""Recursion guard: about twelve levels of `sh -c` / `eval` / wrappers inside each other."""

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_HOME_VARIABLE = re.compile(r"^(\$HOME|\$\{HOME\})(?=/|$)")
_GLOB = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class Denial:
    """Why a command is denied: a catalog key and its fields."""

    key: str
    command: str = ""


REMOVES_ROOT: Final = Denial("permissions.reason.removes_root")
REMOVES_SYSTEM_DIR: Final = Denial("permissions.reason.removes_system_dir")


@dataclass(frozen=True)
class Places:
    """The two directories the red line needs: the workspace and the user's home (resolved)."""

    root: Path
    home: Path


def red_line(command: str, places: Places) -> Denial | None:
    """Return why `command` must never run, or None when the red line has nothing to say."""
    return _judge_script(parse(command), places, 0)


def _judge_script(script: Script, places: Places, depth: int) -> Denial | None:
    for words in script.commands:
        places = _after_cd(words, places)
        denial = _judge(list(words), places, depth)
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
    if not words or words[0].text != "cd":
        return places
    operands = _operands(words[1:])
    target = _expand(operands[0].text, places) if operands else str(places.home)
    if not target or target == "-":
        return places
    where = Path("/" + os.path.normpath(str(places.root / target)).lstrip("/"))
    return Places(where, places.home)


def _judge_text(text: str, places: Places, depth: int) -> Denial | None:
    if depth > MAX_DEPTH:
        return None
    return _judge_script(parse(text), places, depth + 1)


def _judge(words: list[Word], places: Places, depth: int) -> Denial | None:
    """Judge one simple command, unwrapping wrappers until the real command shows."""
    if depth > MAX_DEPTH:
        return None
    while words and (words[0].text in RESERVED_WORDS or _NAME.match(words[0].text)):
        words = words[1:]
    if not words:
        return None
    head, args = words[0], words[1:]
    if head.dynamic:
        # The shell computes the command name: assume the worst about what it removes.
        return _removal(args, places)
    name = PurePosixPath(head.text).name
    if name in ESCALATION_COMMANDS:
        return Denial("permissions.reason.escalation", name)
    if name in REMOVAL_COMMANDS:
        return _removal(args, places)
    special = _SPECIAL.get(name)
    if special is not None:
        return special(args, places, depth + 1)
    unwrap = _WRAPPERS.get(name)
    if unwrap is not None:
        inner = unwrap(args)
        return _judge(inner, places, depth + 1) if inner else None
    return None


# -- removal targets ---------------------------------------------------------------------------


def _operands(args: Sequence[Word]) -> list[Word]:
    """Arguments that are not options (everything after `--` is an operand)."""
    result: list[Word] = []
    options = True
    for word in args:
        if options and word.text == "--":
            options = False
        elif not (options and word.text.startswith("-") and word.text != "-"):
            result.append(word)
    return result


def _removal(args: Sequence[Word], places: Places) -> Denial | None:
    for word in _operands(args):
        denial = target_denial(word, places)
        if denial:
            return denial
    return None


def _expand(text: str, places: Places) -> str | None:
    """Expand a leading `~`, `~user`, `$HOME` or `${HOME}`; None if an expansion remains."""
    if text.startswith("~"):
        user, _, rest = text[1:].partition("/")
        if user:
            try:
                base = pwd.getpwnam(user).pw_dir
            except KeyError:
                return None
        else:
            base = str(places.home)
        text = base + ("/" + rest if rest or text.endswith("/") else "")
    text = _HOME_VARIABLE.sub(lambda _: str(places.home), text)
    if "$" in text or "`" in text:
        return None
    return text


def _candidates(path: str, places: Places) -> set[str]:
    """The places `path` may mean: lexically normalised, and with symlinks resolved."""
    joined = str(places.root / path)
    found = {"/" + os.path.normpath(joined).lstrip("/")}
    try:
        found.add("/" + os.path.realpath(joined).lstrip("/"))
    except (OSError, ValueError):
        pass
    return found


def _is_home_or_above(path: str, home: Path) -> bool:
    return path == "/" or home == Path(path) or home.is_relative_to(path)


def target_denial(word: Word, places: Places) -> Denial | None:
    """Tell whether removing `word` would remove `/`, a home, its ancestors or a top-level dir."""
    if word.text in ROOT_TARGETS:
        return REMOVES_ROOT
    expanded = _expand(word.text, places)
    if expanded is None or not expanded:
        return None
    homes = {places.home}
    if word.text.startswith("~") and word.text[1:2] not in ("", "/"):
        other = _expand(word.text.split("/", 1)[0], places)  # ~user: that user's home
        if other:
            homes.add(Path(other))
    if _GLOB.search(expanded):
        # A pattern in the last component removes the children of its parent: `/*`, `~/.*`.
        parent, slash, last = expanded.rstrip("/").rpartition("/")
        if _GLOB.search(parent) or not _GLOB.search(last):
            return None
        expanded = parent or (slash and "/") or "."
    paths = _candidates(expanded, places)
    if any(_is_home_or_above(p, home) for p in paths for home in homes):
        return REMOVES_ROOT
    if any(p.count("/") == 1 for p in paths):
        return REMOVES_SYSTEM_DIR
    return None


# -- wrappers ----------------------------------------------------------------------------------


def _skip_options(
    args: list[Word], with_value: frozenset[str], stop_at_first_operand: bool = True
) -> list[Word]:
    """Drop leading options; `with_value` names the options that take the next word."""
    index = 0
    while index < len(args):
        text = args[index].text
        if text == "--":
            return args[index + 1 :]
        if not text.startswith("-") or text == "-":
            break
        flag = text.split("=", 1)[0]
        if flag in with_value and "=" not in text:
            index += 2
            continue
        if not flag.startswith("--") and len(flag) > 2 and flag[:2] in with_value:
            index += 1  # the value is attached: -n5, -s9
            continue
        index += 1
    return args[index:] if stop_at_first_operand else args


def _plain(args: list[Word]) -> list[Word]:
    return _skip_options(args, frozenset())


def _command_builtin(args: list[Word]) -> list[Word]:
    if any(w.text in ("-v", "-V") for w in args[:2]):
        return []  # `command -v x` looks x up, it does not run it
    return _skip_options(args, frozenset())


def _timeout(args: list[Word]) -> list[Word]:
    rest = _skip_options(args, frozenset({"-s", "--signal", "-k", "--kill-after"}))
    return rest[1:]  # the duration


def _find_options(names: str) -> frozenset[str]:
    return frozenset(names.split())


_WRAPPERS: Final[dict[str, Callable[[list[Word]], list[Word]]]] = {
    "command": _command_builtin,
    "builtin": _plain,
    "nohup": _plain,
    "noglob": _plain,
    "chronic": _plain,
    "unbuffer": _plain,
    "setsid": _plain,
    "busybox": _plain,
    "exec": lambda a: _skip_options(a, _find_options("-a")),
    "time": lambda a: _skip_options(a, _find_options("-f --format -o --output")),
    "nice": lambda a: _skip_options(a, _find_options("-n --adjustment")),
    "ionice": lambda a: _skip_options(a, _find_options("-c --class -n --classdata")),
    "stdbuf": lambda a: _skip_options(a, _find_options("-i --input -o --output -e --error")),
    "timeout": _timeout,
    "xargs": lambda a: _skip_options(
        a,
        _find_options(
            "-a --arg-file -d --delimiter -E -I -L --max-lines -n --max-args -P --max-procs "
            "-s --max-chars --process-slot-var"
        ),
    ),
}


def _env(args: list[Word], places: Places, depth: int) -> Denial | None:
    """`env [options] [NAME=value...] command`; `-S STRING` is split into words first."""
    with_value = _find_options("-u --unset -C --chdir")
    index = 0
    while index < len(args):
        text = args[index].text
        if text in ("-S", "--split-string") or text.startswith(("-S", "--split-string=")):
            if text in ("-S", "--split-string"):
                split = args[index + 1].text if index + 1 < len(args) else ""
                rest = args[index + 2 :]
            else:
                split = text[2:] if text.startswith("-S") else text.split("=", 1)[1]
                rest = args[index + 1 :]
            return _judge_words_of(split, rest, places, depth)
        if text == "--":
            index += 1
            break
        if not text.startswith("-") or text == "-":
            break
        index += 2 if text in with_value else 1
    return _judge(args[index:], places, depth)


def _judge_words_of(text: str, rest: Sequence[Word], places: Places, depth: int) -> Denial | None:
    script = parse(text)
    if not script.commands:
        return _judge(list(rest), places, depth)
    first, *others = script.commands
    denial = _judge([*first, *rest], places, depth)
    return denial or _judge_script(Script(tuple(others), script.complete), places, depth)


def _shell(args: list[Word], places: Places, depth: int) -> Denial | None:
    """`sh -c STRING` (also `-lc`, `-ec`, `-o opt -c`): judge STRING as a script of its own."""
    runs_string = False
    index = 0
    while index < len(args):
        text = args[index].text
        if text == "--":
            index += 1
            break
        if text in ("-o", "+o", "--rcfile", "--init-file"):
            index += 2
            continue
        if text.startswith(("-", "+")) and text not in ("-", "+"):
            if not text.startswith("--") and "c" in text[1:]:
                runs_string = True
            index += 1
            continue
        break
    if not runs_string or index >= len(args):
        return None  # a script file or stdin: opaque to the red line
    return _judge_text(args[index].text, places, depth)


def _eval(args: list[Word], places: Places, depth: int) -> Denial | None:
    return _judge_text(" ".join(w.text for w in args), places, depth)


def _watch(args: list[Word], places: Places, depth: int) -> Denial | None:
    rest = _skip_options(args, _find_options("-n --interval -q --equexit"))
    return _judge_text(" ".join(w.text for w in rest), places, depth)


def _flock(args: list[Word], places: Places, depth: int) -> Denial | None:
    rest = _skip_options(args, _find_options("-w --timeout -E --conflict-exit-code"))
    if len(rest) >= 3 and rest[1].text in ("-c", "--command"):
        return _judge_text(rest[2].text, places, depth)
    return _judge(rest[1:], places, depth)


_FIND_ACTIONS: Final = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def _find(args: list[Word], places: Places, depth: int) -> Denial | None:
    """`find START... EXPR`: `-delete` or an `-exec rm {}` removes what START names."""
    index = 0
    while index < len(args) and args[index].text in ("-H", "-L", "-P"):
        index += 1
    starts: list[Word] = []
    while index < len(args) and not _find_expression(args[index].text):
        starts.append(args[index])
        index += 1
    starts = starts or [Word(".")]
    expression = args[index:]
    if any(w.text == "-delete" for w in expression):
        denial = _removal(starts, places)
        if denial:
            return denial
    position = 0
    while position < len(expression):
        if expression[position].text not in _FIND_ACTIONS:
            position += 1
            continue
        end = position + 1
        while end < len(expression) and expression[end].text not in (";", "+"):
            end += 1
        action = expression[position + 1 : end]
        for start in starts:
            filled = [
                Word(w.text.replace("{}", start.text), w.dynamic or start.dynamic) for w in action
            ]
            denial = _judge(filled, places, depth)
            if denial:
                return denial
        position = end + 1
    return None


def _find_expression(text: str) -> bool:
    return (text.startswith("-") and text != "-") or text in ("(", "!", ",", ")")


_SPECIAL: Final[dict[str, Callable[[list[Word], Places, int], Denial | None]]] = {
    "env": _env,
    "eval": _eval,
    "watch": _watch,
    "flock": _flock,
    "find": _find,
    **dict.fromkeys(SHELL_COMMANDS, _shell),
}
