"""Who answers KeSi's questions in the demo: `--yes`, the person at the terminal, or nobody.

Every permission prompt and edit review is shown on screen with the answer it got. `--yes`
answers the one that allows this once ("Allow once", 「這次」; "accept"), wherever the editor
shows it (the server puts Deny first); without it, a terminal asks; with no terminal to ask,
every question is denied — the gate fails closed, as the seed's `ask_user`
does when nobody is there (「沒有人可以問，自動拒絕」).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence
from typing import Literal, Protocol

from kesi_lsp.catalog import Locale, text
from kesi_lsp.demo.screen import Screen

Mode = Literal["yes", "ask", "deny"]


class Answers(Protocol):
    """Pick one of `choices`: `yes` is the index of the one that allows once, `no` of the one
    that refuses; None: no answer."""

    mode: Mode

    async def choose(self, choices: Sequence[str], *, yes: int, no: int) -> int | None: ...


class YesAnswers:
    """`--yes`: allow once / accept, every time."""

    mode: Mode = "yes"

    def __init__(self, screen: Screen, locale: Locale) -> None:
        self._screen = screen
        self._locale = locale

    async def choose(self, choices: Sequence[str], *, yes: int, no: int) -> int | None:
        self._screen.good(text("demo.answer.yes", self._locale, choice=choices[yes]))
        return yes


class DenyAnswers:
    """No terminal and no `--yes`: nobody can answer, so everything is refused."""

    mode: Mode = "deny"

    def __init__(self, screen: Screen, locale: Locale) -> None:
        self._screen = screen
        self._locale = locale

    async def choose(self, choices: Sequence[str], *, yes: int, no: int) -> int | None:
        self._screen.bad(text("demo.answer.nobody", self._locale, choice=choices[no]))
        return no


class TerminalAnswers:
    """Ask the person at the terminal; an empty line or end of input refuses."""

    mode: Mode = "ask"

    def __init__(self, screen: Screen, locale: Locale) -> None:
        self._screen = screen
        self._locale = locale

    async def choose(self, choices: Sequence[str], *, yes: int, no: int) -> int | None:
        menu = "  ".join(f"[{i}] {choice}" for i, choice in enumerate(choices, start=1))
        self._screen.info("    " + menu)
        question = text("demo.answer.question", self._locale, count=len(choices))
        while True:
            answer = await _read_line(lambda: self._screen.ask("    " + question))
            if answer.isdigit() and 1 <= int(answer) <= len(choices):
                index = int(answer) - 1
                self._screen.note(text("demo.answer.chosen", self._locale, choice=choices[index]))
                return index
            if answer == "":
                self._screen.bad(text("demo.answer.empty", self._locale, choice=choices[no]))
                return no
            self._screen.warn(text("demo.answer.again", self._locale, count=len(choices)))


async def _read_line(read: Callable[[], str]) -> str:
    """Read a line without blocking the event loop.

    A daemon thread, not the loop's executor: if the run is cancelled while the question is
    on screen, the demo must be able to exit without waiting for someone to press Enter.
    """
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[str] = loop.create_future()

    def worker() -> None:
        try:
            line = read()
        except (EOFError, KeyboardInterrupt, OSError):
            line = ""
        loop.call_soon_threadsafe(_settle, answer, line)

    threading.Thread(target=worker, name="demo-answer", daemon=True).start()
    return await answer


def _settle(future: asyncio.Future[str], line: str) -> None:
    if not future.done():
        future.set_result(line)


def answers_for(yes: bool, interactive: bool, screen: Screen, locale: Locale) -> Answers:
    if yes:
        return YesAnswers(screen, locale)
    if interactive:
        return TerminalAnswers(screen, locale)
    return DenyAnswers(screen, locale)
