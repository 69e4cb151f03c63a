"""Finding where a `$(...)` or `${...}` ends, skipping quotes the way the shell does.

Split from `shellwords.py` (the reader) so each stays small: this part knows only quoting,
and bash's `$'...'` escapes.
"""

from __future__ import annotations

import re
from typing import Final


def matching(source: str, start: int, opening: str, closing: str) -> int:
    """Index of the `closing` that balances the `opening` at `start`, or -1.

    Quotes, backslashes and nested substitutions inside are skipped the way the shell does.
    """
    depth = 0
    pos = start
    while pos < len(source):
        char = source[pos]
        if char == "\\":
            pos += 2
            continue
        if char == "'" and opening == "(":
            end = source.find("'", pos + 1)
            if end < 0:
                return -1
            pos = end + 1
            continue
        if char == '"':
            pos = _skip_double_quoted(source, pos)
            if pos < 0:
                return -1
            continue
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return pos
        pos += 1
    return -1


def _skip_double_quoted(source: str, start: int) -> int:
    pos = start + 1
    while pos < len(source):
        char = source[pos]
        if char == "\\":
            pos += 2
        elif char == '"':
            return pos + 1
        elif char == "$" and source[pos + 1 : pos + 2] == "(":
            end = matching(source, pos + 1, "(", ")")
            if end < 0:
                return -1
            pos = end + 1
        else:
            pos += 1
    return -1


_SIMPLE_ESCAPES: Final = {
    "a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n", "r": "\r",
    "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?",
}  # fmt: skip
_NUMERIC_ESCAPE: Final = re.compile(
    r"x([0-9A-Fa-f]{1,2})|u([0-9A-Fa-f]{1,4})|U([0-9A-Fa-f]{1,8})|([0-7]{1,3})"
)


def ansi_c(source: str, start: int) -> tuple[str, int]:
    """Read bash's `$'...'` whose opening quote is at `start`: (the text it means, the index
    after the closing quote, or -1 if there is none).

    macOS' /bin/sh is bash, where `$'\\x73udo'` is `sudo`; the red line must read it so.
    """
    out: list[str] = []
    pos = start + 1
    while pos < len(source):
        char = source[pos]
        if char == "'":
            return "".join(out), pos + 1
        if char != "\\" or pos + 1 >= len(source):
            out.append(char)
            pos += 1
            continue
        following = source[pos + 1]
        if following in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[following])
            pos += 2
            continue
        number = _NUMERIC_ESCAPE.match(source, pos + 1)
        if number is None:
            out.append("\\" + following)
            pos += 2
            continue
        hexa, short, long, octal = number.groups()
        code = int(octal, 8) if octal else int(hexa or short or long, 16)
        out.append(chr(min(code, 0x10FFFF)))
        pos = number.end()
    return "".join(out), -1
