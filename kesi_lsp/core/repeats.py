"""Loop detection: the same tool call, again and again, with the same answer (Day 12).

Day 12 stops a run after `max_turns` rounds, but a model stuck re-reading one file burns every
one of those rounds first. The seed's next step: 把工具名稱加參數算出一個識別碼，記錄最近幾次，
連續打到同一個就提早停 — a fingerprint of the tool's name and arguments; the book chapter adds
that the *result* matters too (a test run that is re-run after each edit is progress, not a
loop, because its output changes).

The rule, per run: a call whose fingerprint and result are the same as the calls just before
it extends a streak. At the third in a row the model is told, in the result itself, that the
call keeps answering the same; a fourth identical call is not run at all, its tool_use gets a
refusal (so the history stays valid), and the run stops with limit `repeating` and a message
naming the call. Any other call, or a different result, starts a new streak.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.tools.result import ToolResult

TELL_AT: Final = 3
STOP_AT: Final = 4
SHOWN_INPUT_CHARS: Final = 160


def fingerprint(name: str, tool_input: object) -> str:
    """The identity of a call: its tool name and its arguments in canonical JSON."""
    canonical = json.dumps(tool_input, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(f"{name}\x00{canonical}".encode()).hexdigest()


def _result_digest(output: str, is_error: bool) -> str:
    return hashlib.sha256(f"{int(is_error)}\x00{output}".encode()).hexdigest()


def shown_call(name: str, tool_input: object) -> str:
    """A call as one short line: `read_file {"file_path": "a.py"}`."""
    shown = json.dumps(tool_input, ensure_ascii=False, sort_keys=True, default=str)
    if len(shown) > SHOWN_INPUT_CHARS:
        shown = shown[: SHOWN_INPUT_CHARS - 1] + "…"
    return f"{name} {shown}"


@dataclass(frozen=True)
class Repeat:
    """The call that repeated, as the stop message names it."""

    call: str
    times: int


class RepeatWatch:
    """The streak of identical calls in one run (see the module docstring).

    `run(name, input, call)` wraps one tool call: it either refuses the call (the fourth in a
    row after the model was told) or runs it and notes its result. After a round, `stopped`
    says whether the run must end, and what repeated.
    """

    def __init__(self, locale: Locale) -> None:
        self._locale = locale
        self._call: str | None = None
        self._result: str | None = None
        self._count = 0
        self.stopped: Repeat | None = None

    async def run(
        self,
        name: str,
        tool_input: object,
        call: Callable[[], Awaitable[ToolResult]],
        present: Callable[[ToolResult], ToolResult] | None = None,
    ) -> ToolResult:
        """Run `call` unless it is one identical call too many; note what it answered.

        The streak is judged on what the tool answered; `present` may then shorten what the
        model is sent (an unchanged re-read), and the note still goes with it.
        """
        if self.stopped is not None:
            return ToolResult(text("loop.repeat.skipped", self._locale), True)
        key = fingerprint(name, tool_input)
        if key == self._call and self._count >= STOP_AT - 1:
            self.stopped = Repeat(shown_call(name, tool_input), self._count + 1)
            return ToolResult(text("loop.repeat.refused", self._locale, times=self._count), True)
        outcome = await call()
        told = self._note(key, outcome)
        shown = present(outcome) if present is not None else outcome
        if not told:
            return shown
        note = text("loop.repeat.told", self._locale, times=TELL_AT)
        return ToolResult(f"{shown.text}\n\n{note}", shown.is_error)

    def _note(self, key: str, outcome: ToolResult) -> bool:
        """Extend or restart the streak; True when the model is to be told now."""
        digest = _result_digest(outcome.text, outcome.is_error)
        if key == self._call and digest == self._result:
            self._count += 1
        else:
            self._call, self._result, self._count = key, digest, 1
        return self._count == TELL_AT

    def stop_message(self) -> str:
        """The run's stop message: what repeated and how often."""
        assert self.stopped is not None
        return text(
            "loop.repeat.stopped",
            self._locale,
            call=self.stopped.call,
            times=self.stopped.times,
        )
