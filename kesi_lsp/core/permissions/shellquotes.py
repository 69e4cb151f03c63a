"""Finding where a `$(...)` or `${...}` ends, skipping quotes the way the shell does.

Split from `shellwords.py` (the reader) so each stays small: this part knows only quoting.
"""

from __future__ import annotations


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
