"""Where a run's story goes: `kesi/stream` or log lines, progress, and the final word (§2.5).

Everything is sent synchronously from the core's event sink, in the order the events
happen, so text deltas always reach the client in order and before `kesi/runFinished`.
"""

from __future__ import annotations

from typing import Final

from lsprotocol import types

from kesi_lsp.catalog import Editor, Locale, reset_command, text
from kesi_lsp.core import (
    Event,
    NextStep,
    PlanUpdated,
    Run,
    RunFinished,
    Usage,
    end_line,
    end_lines,
    next_step,
    plan_line,
)
from kesi_lsp.lsp.capabilities import ClientFeatures
from kesi_lsp.lsp.contract import RunFinishedParams
from kesi_lsp.lsp.progress import ProgressState, RunProgress, end_message
from kesi_lsp.lsp.stream import (
    LogStory,
    StreamPayloads,
    bill,
    plan_params,
    usage_view,
    verdict_view,
)
from kesi_lsp.lsp.wire import Wire

STREAM: Final = "kesi/stream"
RUN_FINISHED: Final = "kesi/runFinished"
PLAN: Final = "kesi/plan"


_HINTS: Final[dict[NextStep, str]] = {
    "unreachable": "lsp.hint.unreachable",
    "max_turns": "lsp.hint.limit",
    "max_tokens": "lsp.hint.max_tokens",
    "context_window": "lsp.hint.context_window",
    "tool_failures": "lsp.hint.tool_failures",
    "repeating": "lsp.hint.repeating",
}


def what_to_do(finished: RunFinished, locale: Locale, editor: Editor = "lsp") -> str | None:
    """The next step for the user when the run's own message does not say one, in the words
    of an editor (the core decides which step: `next_step`); a missing API key's message
    already says how to set one."""
    step = next_step(finished, locale)
    key = _HINTS.get(step) if step is not None else None
    return text(key, locale, reset=reset_command(editor, locale)) if key is not None else None


class RunOutput:
    """Turns one run's events into messages for this client."""

    def __init__(self, wire: Wire, run: Run, token: str, features: ClientFeatures) -> None:
        self._wire = wire
        self._run = run
        self._features = features
        self.locale: Locale = run.session.settings.locale
        self._story = None if features.stream else LogStory(self.locale)
        self._payloads = StreamPayloads(run.id, self.locale)
        self.progress = RunProgress(wire, token, ProgressState(self.locale))

    async def begin(self) -> None:
        await self.progress.begin(self._features.work_done_progress)

    def emit(self, event: Event) -> None:
        """The core's EventSink."""
        if isinstance(event, PlanUpdated):
            self._plan(event)
        elif self._story is None:
            payload = self._payloads.payload(event)
            if payload is not None:
                self._wire.notify(STREAM, payload)
        else:
            self._log(self._story.feed(event))
        self.progress.update(event)

    def _plan(self, event: PlanUpdated) -> None:
        """`kesi/plan` to clients that show it; one log line per update for the others."""
        if self._features.plan:
            self._wire.notify(PLAN, plan_params(self._run.id, event.plan, self.locale))
        else:
            line = plan_line(event.plan, self.locale)
            self._log([text("lsp.log.plan", self.locale, plan=line)])

    def _log(self, lines: list[str]) -> None:
        for line in lines:
            self._wire.notify(
                types.WINDOW_LOG_MESSAGE,
                types.LogMessageParams(type=types.MessageType.Info, message=line),
            )

    def finish(self, finished: RunFinished, session_usage: Usage) -> None:
        """End the progress, send `kesi/runFinished` (to clients that know it), and say on
        screen how the run ended (see `_show_end`)."""
        run, locale = self._run, self.locale
        the_bill = bill(finished.usage, session_usage, locale)
        closing = end_lines(finished, the_bill, locale)
        if self._story is not None:
            self._log([*self._story.feed(finished), *closing])
        edited = run.edited()
        self.progress.end(
            end_message(
                finished.status, len(edited), finished.usage.cost_usd, locale, finished.verified
            )
        )
        self._show_end(finished, end_line(finished, the_bill, locale))
        if not self._features.kesi:
            return
        self._wire.notify(
            RUN_FINISHED,
            RunFinishedParams(
                run_id=run.id,
                status=finished.status,
                text=finished.text,
                usage=usage_view(finished.usage),
                session_usage=usage_view(session_usage),
                edits=edited,
                # The server's own words, so every client shows the same (Day 18's bill;
                # null when the run made no request) in the session's locale.
                status_text=text(f"lsp.status.{finished.status}", locale),
                bill=the_bill,
                limit=finished.limit,
                verified=verdict_view(finished.verified, locale),
                # The end of the story, rendered: `lines` as the log closes it (why it
                # stopped, the verdict and its detail, the bill), `line` the run's last line
                # (status · verdict · bill) for a footer or a status bar.
                lines=closing,
                line=end_line(finished, the_bill, locale),
            ),
        )

    def _show_end(self, finished: RunFinished, line: str) -> None:
        """One `window/showMessage` when the run ends. A failure is always shown (what
        stopped it, what to do). A client that streams shows the rest of the end itself; any
        other client (lsp-mode, Vim, Neovim without the plugin) shows nothing of the run but
        its log, so a run that did not fail ends with its last line, status · verdict · bill,
        unless `kesi.runEndMessage` is false."""
        locale, settings = self.locale, self._run.session.settings
        if finished.status in ("failed", "limit"):
            message = text(f"lsp.run_{finished.status}", locale, text=finished.text)
            if (hint := what_to_do(finished, locale, settings.editor)) is not None:
                message += " " + hint
            kind = types.MessageType.Error
        elif not self._features.stream and settings.run_end_message:
            message, kind = text("lsp.run_end", locale, line=line), types.MessageType.Info
        else:
            return
        self._wire.notify(
            types.WINDOW_SHOW_MESSAGE, types.ShowMessageParams(type=kind, message=message)
        )
