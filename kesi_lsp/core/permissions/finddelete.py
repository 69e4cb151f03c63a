"""`find START... EXPR` on the red line: what `-delete` and `-exec rm {}` remove.

`find ~ -delete` and `find / -delete` delete the home or the whole system: denied, with or
without tests (round one's corpus: `find ~ -name x -delete` reaches into every folder of the
home). Deleting what matches below them (`find /tmp -name '*.tmp' -delete`, `find ~/.cache
-type f -delete`) is something a user may approve, so it asks (design §3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kesi_lsp.core.permissions.judges import Judges
from kesi_lsp.core.permissions.removal import (
    REMOVES_ROOT,
    SYSTEM_FILES,
    Denial,
    Places,
    candidates,
    expand,
    is_system_path,
    removal,
)
from kesi_lsp.core.permissions.shellwords import Word

_FIND_ACTIONS: Final = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def find_denial(args: list[Word], places: Places, depth: int, judge: Judges) -> Denial | None:
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
        denial = removal(starts, places)
        if denial is REMOVES_ROOT and _filters(expression):
            # Only what matches goes: the line is `/` or home itself, not a folder above home.
            denial = next((REMOVES_ROOT for w in starts if _is_root_or_home(w, places)), None)
        if denial is REMOVES_ROOT or denial is SYSTEM_FILES:
            return denial
        if any(is_system_path(p, places) for w in starts for p in candidates(w.text, places)):
            return SYSTEM_FILES
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
            denial = judge.words(filled, places, depth)
            if denial:
                return denial
        position = end + 1
    return None


_FIND_TESTS: Final = frozenset(
    [
        "-name",
        "-iname",
        "-path",
        "-ipath",
        "-wholename",
        "-iwholename",
        "-regex",
        "-iregex",
        "-type",
        "-xtype",
        "-size",
        "-empty",
        "-newer",
        "-anewer",
        "-cnewer",
        "-newermt",
        "-mtime",
        "-mmin",
        "-atime",
        "-amin",
        "-ctime",
        "-cmin",
        "-user",
        "-group",
        "-uid",
        "-gid",
        "-perm",
        "-links",
        "-inum",
        "-samefile",
        "-lname",
        "-ilname",
    ]
)


def _filters(expression: Sequence[Word]) -> bool:
    return any(w.text in _FIND_TESTS for w in expression)


def _is_root_or_home(word: Word, places: Places) -> bool:
    if word.text in ("/", "~", "~/", "$HOME", "${HOME}"):
        return True
    expanded = expand(word.text, places)
    found = candidates(expanded, places) if expanded else set()
    return any(p == "/" or p == str(places.home) for p in found)


def _find_expression(text: str) -> bool:
    return (text.startswith("-") and text != "-") or text in ("(", "!", ",", ")")
