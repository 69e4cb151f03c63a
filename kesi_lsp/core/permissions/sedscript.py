"""Is a sed script print-only? (`sed -n 1,5p file` runs without asking; `sed 'w x'` does not).

sed can write files (`w`, `W`, the `w` flag of `s`), read them (`r`, `R`) and run programs
(`e`, the `e` flag of `s`). This reader accepts only addresses and the commands that print or
move through the input; anything it does not know makes the script not read-only.
"""

from __future__ import annotations

from typing import Final

PRINTING: Final = frozenset("pPl=dDnNgGhHxzqQ{}")
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

    def delimited(self, delimiter: str) -> bool:
        """Read up to the unescaped `delimiter` (consumed); False if it never comes."""
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            if char == "\\":
                self.pos += 1
            elif char == delimiter:
                return True
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
            return self.delimited("/") and self._regex_flags()
        elif char == "\\":
            delimiter = self.text[self.pos + 1 : self.pos + 2]
            self.pos += 2
            return bool(delimiter) and self.delimited(delimiter) and self._regex_flags()
        return True

    def _regex_flags(self) -> bool:
        while self.peek() in ("I", "M"):
            self.pos += 1
        return True


def print_only(script: str) -> bool:
    """Whether every command of `script` only prints, deletes from or moves through the input."""
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
        if not _command(reader):
            return False
    return True


def _command(reader: _Reader) -> bool:
    command = reader.peek()
    reader.pos += 1
    if command in PRINTING:
        while reader.peek().isdigit():  # `q5`, `l 40`
            reader.pos += 1
        return True
    if command in ("s", "y"):
        delimiter = reader.peek()
        if not delimiter or delimiter in ("\\", "\n"):
            return False
        reader.pos += 1
        if not (reader.delimited(delimiter) and reader.delimited(delimiter)):
            return False
        if command == "s":
            while reader.peek() and reader.peek() not in (";", "\n", "}", " "):
                if reader.peek() not in SUBSTITUTE_FLAGS:
                    return False  # `w file`, `e`: writes a file or runs a program
                reader.pos += 1
        return True
    return False
