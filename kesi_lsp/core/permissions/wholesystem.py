"""The red line for what reaches the whole machine at once (issue 24 item 3; design §3).

- stopping or restarting it: `shutdown` (not `shutdown -c`, which cancels one), `reboot`,
  `poweroff`, `halt`, `kexec`, `init 0`/`6`/`1` and `telinit`, `systemctl poweroff` (and
  `reboot`, `halt`, `kexec`, `soft-reboot`, `rescue`, `emergency`, or `isolate`/`start` of their
  targets), `loginctl poweroff`/`reboot`;
- killing every process: a signal to pid -1 (`kill -9 -1`, `kill -KILL -1`, `kill -- -1`;
  signal 0 only asks whether they exist), `killall5`, and `pkill`/`killall` that select a whole
  user (`pkill -u $USER`) or match every name (`pkill .`) with no narrower pattern;
- fork bombs: a function whose body starts itself twice, in a pipe or in the background
  (`:(){ :|:& };:`, `bomb() { bomb | bomb & }; bomb`);
- `chmod -R` / `chown -R` / `chgrp -R` on `/`, a top-level folder or a system folder: every
  file's mode or owner is gone, with no record of what it was.

An interpreter given code (`python -c 'os.kill(-1, 9)'`) or text piped into a shell is not read
here: those are asked, like everything not on the read-only list.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from kesi_lsp.core.permissions.removal import (
    Denial,
    Places,
    candidates,
    expand,
    is_system_path,
    operands,
)
from kesi_lsp.core.permissions.shellwords import Script, Word

POWER_COMMANDS: Final = frozenset({"shutdown", "reboot", "poweroff", "halt", "kexec"})
INIT_LEVELS: Final = frozenset({"0", "6", "1", "s", "single", "emergency", "rescue"})
SYSTEMCTL_STOPS: Final = frozenset(
    {"poweroff", "reboot", "halt", "kexec", "soft-reboot", "rescue", "emergency"}
)
STOP_TARGETS: Final = frozenset(f"{verb}.target" for verb in SYSTEMCTL_STOPS)


def _words(names: str) -> frozenset[str]:
    return frozenset(names.split())


SYSTEMCTL_VALUES: Final = _words(
    "-H --host -M --machine -t --type -p --property -s --signal --root -n --lines -o --output "
    "--state --kill-whom --what --job-mode --when --message -P --image"
)
KILL_VALUES: Final = frozenset({"-s", "--signal", "-n", "-q", "--queue", "--timeout"})
KILL_LISTS: Final = frozenset({"-l", "-L", "--list", "--table"})
PKILL_VALUES: Final = _words(
    "-g --pgroup -G --group -O --older -P --parent -s --session -t --terminal -u --euid -U --uid "
    "-F --pidfile --ns --nslist -r --runstates --signal -q --queue -o --older-than -y "
    "--younger-than -n -Z --context --user"
)
USER_SELECTORS: Final = frozenset({"-u", "-U", "--euid", "--uid", "--user"})
MATCHES_EVERYTHING: Final = frozenset({"", ".", ".*", "^", "$", "^.*", ".+", "^.*$", "^.+"})
OWNERSHIP_COMMANDS: Final = frozenset({"chmod", "chown", "chgrp"})

STOPS_SYSTEM: Final = "permissions.reason.stops_system"
KILLS_EVERYTHING: Final = "permissions.reason.kills_everything"
FORK_BOMB: Final = Denial("permissions.reason.fork_bomb")

_SIGNAL_ZERO: Final = re.compile(r"^-(0|s0|SIG0|-signal=0)$", re.IGNORECASE)


def whole_system(name: str, shown: str, args: Sequence[Word], places: Places) -> Denial | None:
    """The red line for one command `name` (folded base name) written as `shown`."""
    texts = [w.text for w in args]
    if name in POWER_COMMANDS:
        cancels = name == "shutdown" and any(t in ("-c", "--cancel") for t in texts)
        return None if cancels else Denial(STOPS_SYSTEM, shown)
    if name in ("init", "telinit") and any(t.casefold() in INIT_LEVELS for t in texts):
        return Denial(STOPS_SYSTEM, shown)
    if name in ("systemctl", "loginctl") and _systemctl_stops(texts):
        return Denial(STOPS_SYSTEM, f"{shown} {_verb(texts)}")
    if name == "killall5" or (name == "kill" and _kills_all(texts)):
        return Denial(KILLS_EVERYTHING, shown)
    if name in ("pkill", "killall") and _kills_a_whole_user(texts):
        return Denial(KILLS_EVERYTHING, shown)
    if name in OWNERSHIP_COMMANDS and _recursive(texts) and _reaches_system(args, places):
        return Denial("permissions.reason.recursive_system", shown)
    return None


def _verb(texts: list[str]) -> str:
    """systemctl's command: its first word that is neither an option nor an option's value."""
    index = 0
    while index < len(texts):
        text = texts[index]
        if not text.startswith("-"):
            return text.casefold()
        index += 2 if text in SYSTEMCTL_VALUES else 1
    return ""


def _systemctl_stops(texts: list[str]) -> bool:
    verb = _verb(texts)
    if verb in SYSTEMCTL_STOPS:
        return True
    if verb in ("isolate", "start", "restart", "reload-or-restart", "try-restart"):
        return any(t.casefold() in STOP_TARGETS for t in texts)
    return False


def _kills_all(texts: list[str]) -> bool:
    """`kill [-SIG | -s SIG | -n NUM] [--] PID...` with pid -1: every process it may signal."""
    index = 0
    if texts and texts[0] in KILL_LISTS:
        return False
    if texts and (_SIGNAL_ZERO.match(texts[0]) or texts[:2] in (["-s", "0"], ["-n", "0"])):
        return False
    if texts and texts[0] in KILL_VALUES:
        index = 2
    elif texts and texts[0].startswith("-") and texts[0] != "--" and texts[0] != "-1":
        index = 1
    elif texts[:1] == ["-1"] and len(texts) > 1:
        index = 1  # `kill -1 -1`: HUP to every process
    if texts[index : index + 1] == ["--"]:
        index += 1
    return "-1" in texts[index:]


def _kills_a_whole_user(texts: list[str]) -> bool:
    """`pkill -u USER` with no pattern, or a pattern that matches every name (`pkill .`)."""
    index = 0
    user = False
    patterns: list[str] = []
    while index < len(texts):
        text = texts[index]
        index += 1
        if text == "--":
            patterns += texts[index:]
            break
        flag = text.split("=", 1)[0]
        if flag in USER_SELECTORS or (text[:2] in ("-u", "-U") and len(text) > 2):
            user = True
        if flag in PKILL_VALUES and "=" not in text:
            index += 1
        elif not text.startswith("-") or text == "-":
            patterns.append(text)
    if not patterns:
        return user
    return all(pattern in MATCHES_EVERYTHING for pattern in patterns)


def _recursive(texts: list[str]) -> bool:
    for text in texts:
        if text == "--":
            return False
        if text == "--recursive" or (text[:1] == "-" and text[:2] != "--" and "R" in text):
            return True
    return False


def _reaches_system(args: Sequence[Word], places: Places) -> bool:
    """An operand that is `/`, a top-level folder or in a system folder (not the workspace)."""
    for word in operands(args):
        expanded = expand(word.text, places)
        if not expanded:
            continue
        if expanded.rstrip("/").endswith("/*"):
            expanded = expanded.rstrip("/")[:-2] or "/"
        for path in candidates(expanded, places):
            if path == "/" or path.count("/") == 1 or is_system_path(path, places):
                return True
    return False


def fork_bomb(script: Script) -> Denial | None:
    """A function defined in `script` whose body starts it twice, in a pipe or the background.

    The reader gives `f(){ f|f& }` as the commands `[f] [{ f] [f] [}]`, `function f { f|f& }`
    as `[function f { f] [f] [}]`: a definition is a name followed by a `{` where the text has
    `()`, or the word `function`."""
    if not script.operators & {"|", "&", "|&"}:
        return None
    parentheses = {"(", ")"} <= script.operators
    commands = [[w.text for w in words] for words in script.commands]
    for index, words in enumerate(commands):
        name, body_start = _defined(commands, index)
        if name is None or (body_start == 1 and not parentheses):
            continue
        calls = 0
        for body in [words[body_start:], *commands[index + 1 :]]:
            if body == ["}"]:
                break
            calls += body.count(name)
        if calls >= 2:
            return FORK_BOMB
    return None


def _defined(commands: list[list[str]], index: int) -> tuple[str | None, int]:
    """The function name defined at `commands[index]`, and where its body starts in it."""
    words = commands[index]
    if words[:1] == ["function"] and len(words) >= 3 and words[2] == "{":
        return words[1], 3
    following = commands[index + 1] if index + 1 < len(commands) else []
    if len(words) == 1 and following[:1] == ["{"] and words[0] != "function":
        return words[0], 1
    return None, 0
