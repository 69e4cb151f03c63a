"""How the demo shows what happens: rich on a terminal, plain lines otherwise.

Everything the demo says goes through a `Screen`, so the story is told once and rendered
twice: `RichScreen` (colours, rules, a highlighted diff, a bill table) when stdout is a
terminal, `PlainScreen` (the same words, no escape codes) when it is a pipe or a file, as in CI.
The model's explanation is streamed as it arrives, prefixed like the seed's `KeSi > `.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import IO

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule
from rich.syntax import Syntax
from rich.table import Table


class PipeSafe:
    """A text stream that goes quiet when its reader leaves (`kesi-lsp demo | head`).

    The demo keeps running to its end (the server is shut down properly and the exit status
    still tells whether the tests went green); only the output has nowhere to go. As the
    Python docs advise, the file descriptor is pointed at /dev/null so the interpreter's final
    flush does not complain either.
    """

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream
        self.gone = False

    def write(self, chunk: str) -> int:
        if not self.gone:
            try:
                self._stream.write(chunk)
            except BrokenPipeError:
                self._leave()
        return len(chunk)

    def flush(self) -> None:
        if not self.gone:
            try:
                self._stream.flush()
            except BrokenPipeError:
                self._leave()

    def _leave(self) -> None:
        self.gone = True
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, self._stream.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass

    def isatty(self) -> bool:
        return self._stream.isatty()

    def fileno(self) -> int:
        return self._stream.fileno()

    @property
    def encoding(self) -> str:
        return getattr(self._stream, "encoding", "utf-8") or "utf-8"


KESI_PREFIX = "KeSi > "
CONTINUATION = " " * len(KESI_PREFIX)


class Screen:
    """The plain renderer; `RichScreen` overrides the styled parts."""

    def __init__(self, out: IO[str] | PipeSafe | None = None) -> None:
        self.out = out if out is not None else PipeSafe(sys.stdout)
        self._in_text = False
        self._at_line_start = True

    # -- low level ---------------------------------------------------------------------------

    def _write(self, chunk: str) -> None:
        self.out.write(chunk)
        self.out.flush()

    def _line(self, line: str, style: str = "") -> None:
        self.end_text()
        self._write(line + "\n")

    # -- the story ---------------------------------------------------------------------------

    def title(self, line: str) -> None:
        self._line(line, "bold")

    def section(self, heading: str) -> None:
        self._line("")
        self._line(f"== {heading}", "bold")

    def info(self, line: str) -> None:
        self._line(line)

    def note(self, line: str) -> None:
        self._line(line, "dim")

    def good(self, line: str) -> None:
        self._line(line, "green")

    def bad(self, line: str) -> None:
        self._line(line, "red")

    def warn(self, line: str) -> None:
        self._line(line, "yellow")

    def tool(self, line: str) -> None:
        self._line(line, "cyan")

    def block(self, text: str, indent: str = "    ", style: str = "") -> None:
        for line in text.rstrip("\n").splitlines() or [""]:
            self._line(indent + line, style)

    def diff(self, text: str, indent: str = "    ") -> None:
        self.block(text, indent)

    def stream_text(self, delta: str) -> None:
        """A piece of the model's explanation, shown as it arrives."""
        for part in delta.splitlines(keepends=True):
            if not self._in_text:
                self._in_text = True
                self._at_line_start = False
                self._write_text(KESI_PREFIX, prefix=True)
            elif self._at_line_start and part.strip():
                self._write_text(CONTINUATION, prefix=True)
            self._write_text(part, prefix=False)
            self._at_line_start = part.endswith("\n")

    def _write_text(self, chunk: str, *, prefix: bool) -> None:
        self._write(chunk)

    def end_text(self) -> None:
        """Close the model's text block (a tool line or a prompt comes next)."""
        if self._in_text:
            if not self._at_line_start:
                self._write("\n")
            self._in_text = False
            self._at_line_start = True

    def table(self, header: Sequence[str], rows: Sequence[Sequence[str]], indent: str) -> None:
        widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
        for row in [header, *rows]:
            cells = [
                str(cell).rjust(w) if 0 < i < len(row) - 1 else str(cell).ljust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ]
            self._line(indent + "  ".join(cells).rstrip())

    def ask(self, question: str) -> str:
        """Read one answer from the person at the terminal ("" when input ends)."""
        self.end_text()
        self._write(question)
        line = sys.stdin.readline()
        return line.strip()


class RichScreen(Screen):
    """The same story with colours, rules and a highlighted diff, for a terminal."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(highlight=False, soft_wrap=True)
        super().__init__(self.console.file)

    def _line(self, line: str, style: str = "") -> None:
        self.end_text()
        self.console.print(escape(line), style=style or None)

    def section(self, heading: str) -> None:
        self.end_text()
        self.console.print()
        self.console.print(Rule(escape(heading), style="bold blue", align="left"))

    def diff(self, text: str, indent: str = "    ") -> None:
        self.end_text()
        syntax = Syntax(text.rstrip("\n"), "diff", theme="ansi_dark", background_color="default")
        self.console.print(syntax)

    def _write_text(self, chunk: str, *, prefix: bool) -> None:
        self.console.print(escape(chunk), end="", style="bold magenta" if prefix else None)
        self.console.file.flush()

    def table(self, header: Sequence[str], rows: Sequence[Sequence[str]], indent: str) -> None:
        self.end_text()
        table = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False)
        for i, name in enumerate(header):
            right = 0 < i < len(header) - 1
            table.add_column(escape(name), justify="right" if right else "left")
        for row in rows:
            table.add_row(*(escape(str(cell)) for cell in row))
        self.console.print(table)

    def ask(self, question: str) -> str:
        self.end_text()
        return self.console.input(f"[bold yellow]{escape(question)}[/]").strip()


def screen_for(out: IO[str]) -> Screen:
    """Rich on a terminal, plain otherwise (NO_COLOR and TERM=dumb are rich's to honour)."""
    safe = PipeSafe(out)
    if out.isatty():
        return RichScreen(Console(file=safe, highlight=False, soft_wrap=True))  # type: ignore[arg-type]
    return Screen(safe)
