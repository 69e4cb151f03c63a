"""A small reader of POSIX shell text, for the permission policy only.

The seed split a command on `[;&|\\n]+` and then ran `shlex.split` on each piece. That misreads
quotes (`echo 'a;b'` became unparseable) and, worse for the red line, skipped any piece it could
not parse: `sudo echo 'a;b'` was never seen as `sudo`. This reader follows the shell's own rules
closely enough to find every place where a command starts: after `; & | && || ( )` and newlines,
after redirections and reserved words, and inside `$(...)`, backticks, `${...}` and `<(...)`.

It never executes or expands anything. Words keep `$NAME` and `$(...)` as written and say whether
the shell would compute part of them at run time (`dynamic`) or glob them (`globbing`). When the
text is cut short (an open quote or substitution), the reader keeps what it read and says the
script is not `complete`: the policy then asks, and the red line still judges what was read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kesi_lsp.core.permissions.shellquotes import ansi_c, matching

MAX_NESTING: Final = 8
"""Substitutions nested deeper than this are not read (the script is then not complete)."""

_OPERATOR_CHARS: Final = frozenset(";&|()\n")
_REDIRECT_CHARS: Final = frozenset("<>")
_BLANKS: Final = frozenset(" \t")
_GLOB_CHARS: Final = frozenset("*?[")
_SPECIAL_CHARS: Final = frozenset("{}]!")
_CONTROL_OPERATORS: Final = (";;&", ";;", ";&", "&&", "||", "|&", ";", "&", "|", "(", ")", "\n")
_REDIRECTIONS: Final = ("<<<", "<<-", "&>>", "<<", ">>", "<&", ">&", "<>", ">|", "&>", "<", ">")
_SPECIAL_PARAMETERS: Final = frozenset("@*#?-$!0123456789")


@dataclass(frozen=True)
class Word:
    """One shell word after quote removal; expansions stay as written.

    `dynamic`: part of the word is computed when the command runs (`$X`, `$(...)`, backticks).
    `globbing`: it has an unquoted `*`, `?` or `[`, so the shell may turn it into file names.
    `special`: it has another character the shell may treat specially when unquoted (`{ } ]`,
    `!`, a backslash, a leading `#`) or bash's `$'...'` / `$"..."` quoting, so what runs may
    differ from the text as read.
    """

    text: str
    dynamic: bool = False
    globbing: bool = False
    special: bool = False


@dataclass(frozen=True)
class Script:
    """Every simple command found in the text, the ones inside substitutions included.

    `complete` is False when the text ends inside a quote or a substitution, or nests
    substitutions deeper than `MAX_NESTING`. `valid` is False when the shell would refuse the
    operators (`ls &&`, `ls | | wc`, `; ls`). `redirects` are the redirection operators and
    their targets; `operators` every control or redirection operator the text uses.
    """

    commands: tuple[tuple[Word, ...], ...]
    complete: bool
    valid: bool = True
    redirects: tuple[tuple[str, Word], ...] = ()
    operators: frozenset[str] = frozenset()
    tokens: tuple[Word | str, ...] = ()
    """The words and operators of the top level, in order (operators as text): for rebuilding
    a command the policy allowed (no substitutions, no redirections in it)."""


@dataclass(frozen=True)
class _Op:
    text: str


_Token = Word | _Op


class _Reader:
    """Turn shell text into words and operators, collecting nested scripts on the way."""

    def __init__(self, source: str, depth: int) -> None:
        self.source = source
        self.depth = depth
        self.pos = 0
        self.complete = True
        self.tokens: list[_Token] = []
        self.nested: list[tuple[Word, ...]] = []
        self.nested_redirects: list[tuple[str, Word]] = []
        self.nested_operators: frozenset[str] = frozenset()
        self.nested_valid = True
        self._text: list[str] = []
        self._started = False
        self._dynamic = False
        self._globbing = False
        self._special = False

    def read(self) -> None:
        source = self.source
        while self.pos < len(source):
            char = source[self.pos]
            if char in _BLANKS:
                self._end_word()
                self.pos += 1
            elif char == "&" and source.startswith(">", self.pos + 1):  # bash's &> and &>>
                self._end_word()
                self._operator(_REDIRECTIONS)
            elif char in _OPERATOR_CHARS:
                self._end_word()
                self._operator(_CONTROL_OPERATORS)
            elif char in _REDIRECT_CHARS:
                if source.startswith("(", self.pos + 1):  # <(...) or >(...)
                    self.pos += 1
                    self._substitution("(", ")")
                    continue
                self._redirection()
            else:
                self._word_char(char)
        self._end_word()

    # -- words -------------------------------------------------------------------------------

    def _word_char(self, char: str) -> None:
        if char in _SPECIAL_CHARS or (char == "#" and not self._started):
            self._special = True
        self._started = True
        if char == "\\":
            self._special = True
            self._backslash()
        elif char == "'":
            self._single_quoted()
        elif char == '"':
            self._double_quoted()
        elif char == "$":
            self._dollar(quoted=False)
        elif char == "`":
            self._backticks()
        else:
            if char in _GLOB_CHARS:
                self._globbing = True
            self._text.append(char)
            self.pos += 1

    def _backslash(self) -> None:
        following = self.source[self.pos + 1 : self.pos + 2]
        if following == "\n":  # line continuation: both characters vanish
            self.pos += 2
            return
        self._text.append(following)
        self.pos += 2

    def _single_quoted(self) -> None:
        end = self.source.find("'", self.pos + 1)
        if end < 0:
            self.complete = False
            end = len(self.source)
        self._text.append(self.source[self.pos + 1 : end])
        self.pos = end + 1

    def _double_quoted(self) -> None:
        source = self.source
        self.pos += 1
        while self.pos < len(source):
            char = source[self.pos]
            if char == '"':
                self.pos += 1
                return
            if char == "\\" and source[self.pos + 1 : self.pos + 2] in ('"', "\\", "$", "`", "\n"):
                if source[self.pos + 1] != "\n":
                    self._text.append(source[self.pos + 1])
                self.pos += 2
            elif char == "$":
                self._dollar(quoted=True)
            elif char == "`":
                self._backticks()
            else:
                self._text.append(char)
                self.pos += 1
        self.complete = False

    def _dollar(self, *, quoted: bool) -> None:
        source = self.source
        following = source[self.pos + 1 : self.pos + 2]
        if following in ("'", '"') and not quoted:
            # bash's `$'...'` (escapes) and `$"..."` (translated); dash reads them otherwise.
            self._special = True
            self.pos += 1
            if following == '"':
                self._double_quoted()
                return
            meant, end = ansi_c(source, self.pos)
            self._text.append(meant)
            self.complete = self.complete and end >= 0
            self.pos = end if end >= 0 else len(source)
        elif following == "(":
            self.pos += 1
            self._substitution("(", ")")
        elif following == "{":
            self.pos += 1
            self._substitution("{", "}")
        elif following and (following.isalnum() or following == "_"):
            end = self.pos + 1
            while end < len(source) and (source[end].isalnum() or source[end] == "_"):
                end += 1
            self._text.append(source[self.pos : end])
            self._dynamic = True
            self.pos = end
        elif following and following in _SPECIAL_PARAMETERS:
            self._text.append(source[self.pos : self.pos + 2])
            self._dynamic = True
            self.pos += 2
        else:
            self._text.append("$")
            self.pos += 1

    def _substitution(self, opening: str, closing: str) -> None:
        """Read `(...)` or `{...}` at `pos` (the `$` or `<` already consumed) as nested script."""
        start = self.pos
        end = matching(self.source, start, opening, closing)
        self._started = True
        self._dynamic = True
        if end < 0:
            self.complete = False
            end = len(self.source)
        inner = self.source[start + 1 : end]
        prefix = "$" if opening == "{" or self.source[start - 1 : start] == "$" else ""
        self._text.append(prefix + opening + inner + (closing if end < len(self.source) else ""))
        self._nest(inner)
        self.pos = end + 1

    def _backticks(self) -> None:
        source = self.source
        end = self.pos + 1
        inner: list[str] = []
        while end < len(source) and source[end] != "`":
            if source[end] == "\\" and source[end + 1 : end + 2] in ("`", "\\", "$"):
                inner.append(source[end + 1])
                end += 2
                continue
            inner.append(source[end])
            end += 1
        if end >= len(source):
            self.complete = False
        self._dynamic = True
        self._text.append(source[self.pos : end + 1])
        self._nest("".join(inner))
        self.pos = end + 1

    def _nest(self, inner: str) -> None:
        if self.depth >= MAX_NESTING:
            self.complete = False
            return
        script = parse(inner, _depth=self.depth + 1)
        self.nested.extend(script.commands)
        self.nested_redirects.extend(script.redirects)
        self.nested_operators |= script.operators
        self.nested_valid = self.nested_valid and script.valid
        self.complete = self.complete and script.complete

    def _end_word(self) -> None:
        if self._started:
            word = Word("".join(self._text), self._dynamic, self._globbing, self._special)
            self.tokens.append(word)
        self._text = []
        self._started = False
        self._dynamic = False
        self._globbing = False
        self._special = False

    # -- operators -----------------------------------------------------------------------------

    def _operator(self, table: tuple[str, ...]) -> None:
        for op in table:
            if self.source.startswith(op, self.pos):
                self.tokens.append(_Op(op))
                self.pos += len(op)
                return
        self.tokens.append(_Op(self.source[self.pos]))
        self.pos += 1

    def _redirection(self) -> None:
        # `2>` or `10<`: a word made only of digits right before the operator is its fd number.
        io_number = self._started and not self._dynamic and "".join(self._text).isdigit()
        if io_number:
            self._text = []
            self._started = False
        self._end_word()
        self._operator(_REDIRECTIONS)


def _simple_commands(
    tokens: list[_Token],
) -> tuple[list[tuple[Word, ...]], list[tuple[str, Word]]]:
    """Cut the token stream into simple commands and redirections (op, target)."""
    commands: list[tuple[Word, ...]] = []
    redirects: list[tuple[str, Word]] = []
    current: list[Word] = []
    target: str | None = None
    for token in tokens:
        if isinstance(token, Word):
            if target is not None:
                redirects.append((target, token))
                target = None
            else:
                current.append(token)
            continue
        if token.text in _REDIRECTIONS:
            target = token.text
            continue
        target = None
        if current:
            commands.append(tuple(current))
        current = []
    if current:
        commands.append(tuple(current))
    return commands, redirects


_NEEDS_COMMAND_AFTER: Final = frozenset({"&&", "||", "|", "|&"})
_SEPARATORS: Final = frozenset({";", "&", "\n"})


def _operators_valid(tokens: list[_Token]) -> bool:
    """Tell whether the control operators sit where the shell accepts them.

    Each of `; & && || | |&` needs a command before it; `&& || | |&` also need one after
    (newlines may come between); a redirection needs its target. `;;` belongs to `case`.
    """
    previous_is_command = False
    pending: str | None = None  # an operator still waiting for its command
    for token in tokens:
        if isinstance(token, Word):
            previous_is_command = True
            pending = None
            continue
        op = token.text
        if op in _REDIRECTIONS:
            if pending in _REDIRECTIONS:
                return False
            pending = op
            continue
        if pending in _REDIRECTIONS:
            return False
        if op == "\n":
            if pending is None:
                previous_is_command = False
            continue
        if op in ("(", ")"):
            previous_is_command = op == ")"
            continue
        if op in (";;", ";&", ";;&") or not previous_is_command or pending is not None:
            return False
        previous_is_command = False
        pending = op if op in _NEEDS_COMMAND_AFTER else None
    return pending is None


def parse(source: str, *, _depth: int = 0) -> Script:
    """Read `source` as `/bin/sh -c` would receive it; never raises."""
    reader = _Reader(source, _depth)
    reader.read()
    commands, redirects = _simple_commands(reader.tokens)
    operators = frozenset(t.text for t in reader.tokens if isinstance(t, _Op))
    return Script(
        tuple(commands + reader.nested),
        reader.complete,
        valid=_operators_valid(reader.tokens) and reader.nested_valid,
        redirects=tuple(redirects) + tuple(reader.nested_redirects),
        operators=operators | reader.nested_operators,
        tokens=tuple(token if isinstance(token, Word) else token.text for token in reader.tokens),
    )
