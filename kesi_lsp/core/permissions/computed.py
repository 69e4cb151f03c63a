"""What a command name the shell computes may turn out to be, for the red line.

`$(echo rm) -rf /` was already judged as the worst removal. But a computed name can as well be
`sudo`: `$(printf sudo) ls`, `` `echo sudo` ls ``, `${SUDO:-sudo} ls`, `S=sudo; $S ls`. These
forms are read here: an `echo`/`printf` of literal words, a parameter's default, and the
values the same text assigns to the parameter. Anything else stays unknown (the policy asks).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from kesi_lsp.core.permissions.shellwords import Word, parse

_SUBSTITUTION: Final = re.compile(r"^\$\((.*)\)$|^`(.*)`$", re.DOTALL)
_PARAMETER: Final = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")
_WITH_DEFAULT: Final = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=?]([^}]*)\}$")
_ASSIGNMENT: Final = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.*)$", re.DOTALL)
_DECLARERS: Final = frozenset({"export", "readonly", "local", "declare", "typeset"})


def assignments(commands: Iterable[tuple[Word, ...]]) -> frozenset[tuple[str, str]]:
    """Every literal `NAME=value` in the text (`S=sudo`, `export S=sudo`, `S=sudo cmd`)."""
    found: set[tuple[str, str]] = set()
    for words in commands:
        for word in words:
            if word.text in _DECLARERS:
                continue
            match = _ASSIGNMENT.match(word.text)
            if match is None:
                break
            if not word.dynamic:
                found.add((match.group(1), match.group(2)))
    return frozenset(found)


def possible_names(text: str, variables: frozenset[tuple[str, str]]) -> list[str]:
    """Literal texts the computed word `text` may become (empty when unknown)."""
    default = _WITH_DEFAULT.match(text)
    if default:
        return [default.group(2), *_values(default.group(1), variables)]
    parameter = _PARAMETER.match(text)
    if parameter:
        return _values(parameter.group(1), variables)
    substitution = _SUBSTITUTION.match(text)
    if substitution:
        printed = _printed(substitution.group(1) or substitution.group(2) or "")
        return [printed] if printed else []
    return []


def _values(name: str, variables: frozenset[tuple[str, str]]) -> list[str]:
    return sorted(value for key, value in variables if key == name)


def _printed(inner: str) -> str | None:
    """What `echo WORDS` or `printf [FORMAT] WORDS` of literal words prints."""
    script = parse(inner)
    if len(script.commands) != 1 or not script.complete:
        return None
    words = script.commands[0]
    if any(w.dynamic for w in words) or words[0].text not in ("echo", "printf"):
        return None
    args = [w.text for w in words[1:] if not (words[0].text == "echo" and w.text in ("-n", "-e"))]
    if words[0].text == "printf" and len(args) > 1 and "%" in args[0]:
        args = args[1:]
    return " ".join(args).strip()
