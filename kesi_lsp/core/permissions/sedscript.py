"""Is a sed script print-only? (`sed -n 1,5p file` runs without asking; `sed 'w x'` does not).

sed can write files (`w`, `W`, the `w` flag of `s`), read them (`r`, `R`) and run programs
(`e`, the `e` flag of `s`). This reader accepts only addresses and the commands that print or
move through the input; anything it does not know makes the script not read-only.

A reader of a language can always disagree with the program that runs it, and a disagreement
here once ran commands unasked: GNU sed does not end a regex at its delimiter inside a bracket
expression (`/[/]/` is one regex), so `/[/]/p;1e CMD` hid an `e` from a reader that split at
the first `/`. This reader now follows GNU's brackets, but safety does not rest on it: an
auto-allowed sed runs with `--sandbox` where sed knows it (`sedrun.py`; GNU sed then refuses
`e`, `r` and `w` itself), and for a sed that does not (BSD, macOS, busybox) the `strict` reading
allows no bracket at all and nothing but printing and moving through the input, so there is no
part of the grammar left where the two could split differently.
"""

from __future__ import annotations

from typing import Final

PRINTING: Final = frozenset("pPl=dDnNgGhHxzqQ{}")
STRICT_PRINTING: Final = frozenset("pPl=dDnNqQ{}")
"""What a sed without `--sandbox` may run unasked: printing and moving through the input."""
SUBSTITUTE_FLAGS: Final = frozenset("gpiImM0123456789")


class _Reader:
    def __init__(self, script: str) -> None:
        self.text = script
        self.pos = 0

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def skip_blanks(self) -> None:
        while self.peek() in (" ", "\t"):
            self.pos += 1

    def delimited(self, delimiter: str, *, regex: bool = False) -> bool:
        """Read up to the unescaped `delimiter` (consumed); False if it never comes.

        In a regex (`regex`), a bracket expression is read whole, as GNU sed reads it: the
        delimiter does not end it, and neither does a backslash escape inside it.
        """
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char == "\\":
                self.pos += 1
            elif char == delimiter:
                return True
            elif regex and char == "[" and not self._bracket():
                return False
        return False

    def _bracket(self) -> bool:
        """Read a bracket expression after its `[`; False if it never ends.

        A `]` first (after an optional `^`) is a member, and `[:alpha:]`, `[.x.]`, `[=x=]`
        end only at their own closing pair.
        """
        if self.peek() == "^":
            self.pos += 1
        if self.peek() == "]":
            self.pos += 1
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char == "]":
                return True
            if char == "[" and self.peek() in (":", ".", "="):
                closing = self.peek() + "]"
                end = self.text.find(closing, self.pos + 1)
                if end < 0:
                    return False
                self.pos = end + 2
        return False

    def address(self) -> bool:
        char = self.peek()
        if char.isdigit():
            while self.peek().isdigit() or self.peek() == "~":
                self.pos += 1
        elif char == "$":
            self.pos += 1
        elif char == "/":
            self.pos += 1
            return self.delimited("/", regex=True) and self._regex_flags()
        elif char == "\\":
            delimiter = self.text[self.pos + 1 : self.pos + 2]
            self.pos += 2
            return bool(delimiter) and self.delimited(delimiter, regex=True) and self._regex_flags()
        return True

    def _regex_flags(self) -> bool:
        while self.peek() in ("I", "M"):
            self.pos += 1
        return True


def print_only(script: str, *, strict: bool = False) -> bool:
    """Whether every command of `script` only prints, deletes from or moves through the input.

    `strict`: for a sed that cannot be run with `--sandbox`: no `[` anywhere (where readers of
    sed disagree), and only `STRICT_PRINTING` commands (no `s`, `y` or hold space).
    """
    if strict and "[" in script:
        return False
    reader = _Reader(script)
    while reader.pos < len(reader.text):
        reader.skip_blanks()
        if reader.peek() in (";", "\n"):
            reader.pos += 1
            continue
        if not reader.address():
            return False
        if reader.peek() == ",":
            reader.pos += 1
            if reader.peek() in ("+", "~"):
                reader.pos += 1
            if not reader.address():
                return False
        reader.skip_blanks()
        if reader.peek() == "!":
            reader.pos += 1
            reader.skip_blanks()
        if not _command(reader, strict):
            return False
    return True


def _command(reader: _Reader, strict: bool) -> bool:
    command = reader.peek()
    reader.pos += 1
    if command in (STRICT_PRINTING if strict else PRINTING):
        while reader.peek().isdigit():  # `q5`, `l 40`
            reader.pos += 1
        return True
    if strict or command not in ("s", "y"):
        return False
    delimiter = reader.peek()
    if not delimiter or delimiter in ("\\", "\n"):
        return False
    reader.pos += 1
    # `s`'s pattern is a regex (brackets count); its replacement and both sides of `y` are not.
    if not reader.delimited(delimiter, regex=command == "s") or not reader.delimited(delimiter):
        return False
    if command == "s":
        while reader.peek() and reader.peek() not in (";", "\n", "}", " "):
            if reader.peek() not in SUBSTITUTE_FLAGS:
                return False  # `w file`, `e`: writes a file or runs a program
            reader.pos += 1
    return True
