"""Wrappers the red line looks through, to the command that really runs (seed Day 14).

The seed unwrapped `command`, `builtin`, `nohup`, `noglob`, `env` and `sh -c`. Added here:
`timeout`, `xargs`, `nice`, `ionice`, `stdbuf`, `setsid`, `exec`, `time`, `busybox`, `eval`,
`watch`, `flock`, `env -S`, `chroot`, `unshare`, `caffeinate`, `script -c`, shells nested up
to the reader's limit, and `find -exec` / `-delete` (`finddelete.py`). Wrappers that only
change how a command runs are `WRAPPERS` (they return the inner words); the ones that carry a
script of their own are `SPECIAL` (they judge it through the `Judges` the red line hands them,
so this module needs no import of it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from kesi_lsp.core.permissions.finddelete import find_denial
from kesi_lsp.core.permissions.judges import Judges, Special
from kesi_lsp.core.permissions.removal import Denial, Places
from kesi_lsp.core.permissions.shellwords import Script, Word, parse

__all__ = ["SHELL_COMMANDS", "SPECIAL", "WRAPPERS", "Judges"]

SHELL_COMMANDS: Final = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "yash", "posh", "fish"}
)


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


def _chroot(args: list[Word]) -> list[Word]:
    """`chroot [--userspec=U] NEWROOT [COMMAND...]`: the command after the new root."""
    return _skip_options(args, _find_options("--userspec --groups"))[1:]


WRAPPERS: Final[dict[str, Callable[[list[Word]], list[Word]]]] = {
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
    "chroot": _chroot,
    "caffeinate": lambda a: _skip_options(a, _find_options("-t -w")),
    "unshare": lambda a: _skip_options(
        a,
        _find_options(
            "-S --setuid -G --setgid -R --root -w --wd --map-user --map-group --propagation "
            "--setgroups --map-users --map-groups"
        ),
    ),
    "xargs": lambda a: _skip_options(
        a,
        _find_options(
            "-a --arg-file -d --delimiter -E -I -L --max-lines -n --max-args -P --max-procs "
            "-s --max-chars --process-slot-var"
        ),
    ),
}


def _env(args: list[Word], places: Places, depth: int, judge: Judges) -> Denial | None:
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
            return _judge_words_of(split, rest, places, depth, judge)
        if text == "--":
            index += 1
            break
        if not text.startswith("-") or text == "-":
            break
        index += 2 if text in with_value else 1
    return judge.words(args[index:], places, depth)


def _judge_words_of(
    text: str, rest: Sequence[Word], places: Places, depth: int, judge: Judges
) -> Denial | None:
    script = parse(text)
    if not script.commands:
        return judge.words(list(rest), places, depth)
    first, *others = script.commands
    denial = judge.words([*first, *rest], places, depth)
    return denial or judge.script(Script(tuple(others), script.complete), places, depth)


def _shell(args: list[Word], places: Places, depth: int, judge: Judges) -> Denial | None:
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
    return judge.text(args[index].text, places, depth)


def _eval(args: list[Word], places: Places, depth: int, judge: Judges) -> Denial | None:
    return judge.text(" ".join(w.text for w in args), places, depth)


def _watch(args: list[Word], places: Places, depth: int, judge: Judges) -> Denial | None:
    rest = _skip_options(args, _find_options("-n --interval -q --equexit"))
    return judge.text(" ".join(w.text for w in rest), places, depth)


def _script(args: list[Word], places: Places, depth: int, judge: Judges) -> Denial | None:
    """util-linux `script -c CMD [FILE]`; BSD/macOS `script [-aq] [FILE [COMMAND...]]`."""
    for index, word in enumerate(args):
        text = word.text
        following = args[index + 1].text if index + 1 < len(args) else ""
        if text == "--command":
            return judge.text(following, places, depth)
        if text.startswith("--command="):
            return judge.text(text.split("=", 1)[1], places, depth)
        if text.startswith("-") and not text.startswith("--") and "c" in text:
            glued = text[text.index("c") + 1 :]  # `-qc CMD`, `-cCMD`
            return judge.text(glued or following, places, depth)
    rest = _skip_options(args, _find_options("-t -T -F -E --echo -O --log-out -I --log-in"))
    return judge.words(rest[1:], places, depth)


def _flock(args: list[Word], places: Places, depth: int, judge: Judges) -> Denial | None:
    rest = _skip_options(args, _find_options("-w --timeout -E --conflict-exit-code"))
    if len(rest) >= 3 and rest[1].text in ("-c", "--command"):
        return judge.text(rest[2].text, places, depth)
    return judge.words(rest[1:], places, depth)


SPECIAL: Final[dict[str, Special]] = {
    "env": _env,
    "eval": _eval,
    "watch": _watch,
    "flock": _flock,
    "script": _script,
    "find": find_denial,
    **dict.fromkeys(SHELL_COMMANDS, _shell),
}
