"""A prompt turn as the core's `RunFrontend`: where one run's story goes in an ACP client.

The run's life (the sandbox and approvals notices, the gate, cancellation like Ctrl-C, the one
`RunFinished`) is the core's (`kesi_lsp.core.runs.drive`); here is only where it goes: events as
`session/update`s (`updates`), questions as `session/request_permission` (`approver`), files
through the client (`view`). At the end the stop's way on and the seed's bill (Day 18) follow as
notices, before the prompt is answered (`outcome`).
"""

from __future__ import annotations

import logging

from acp.helpers import plan_entry, tool_diff_content, update_plan
from acp.schema import FileEditToolCallContent

from kesi_lsp.acp.approver import AcpApprover
from kesi_lsp.acp.client import AcpClient
from kesi_lsp.acp.outcome import hint_for
from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.acp.tool_calls import Calls
from kesi_lsp.acp.updates import (
    Paragraphs,
    input_arriving,
    message_chunk,
    notice_chunk,
    same_card,
    sub_agent,
    told,
    tool_diff,
    tool_finished,
    tool_running,
    tool_started,
    tool_status,
    usage,
)
from kesi_lsp.acp.view import AcpWorkspaceView
from kesi_lsp.catalog import text
from kesi_lsp.core import (
    EditApplied,
    Event,
    EventLines,
    FileChange,
    Nested,
    Notice,
    PlanUpdated,
    Run,
    RunFinished,
    TextDelta,
    ToolFinished,
    ToolInputProgress,
    ToolStarted,
    UsageReported,
    bill_line,
    context_window,
    end_lines,
    progress_line,
)

log = logging.getLogger(__name__)


class AcpRun:
    """The `RunFrontend` of one prompt turn."""

    def __init__(self, client: AcpClient, session: AcpSession, run: Run) -> None:
        self._client = client
        self._session = session
        self._run = run
        self._locale = run.session.settings.locale
        self._calls = Calls(run.id)
        self._paragraphs = Paragraphs()
        self._diffs: dict[str, FileEditToolCallContent] = {}
        self._story = EventLines(self._locale)  # the lines every front end tells (issue 25)
        self._trails: dict[str, list[str]] = {}  # a sub-agent's lines, by the card it works in
        self._approver = AcpApprover(client, session, self._calls, self._locale)
        self._view = AcpWorkspaceView(
            client,
            session,
            self._approver,
            self._locale,
            on_applied=self._applied,
            on_review=self._reviewing,
        )
        self.finished: RunFinished | None = None

    @property
    def view(self) -> AcpWorkspaceView:
        return self._view

    @property
    def diagnostics(self) -> None:
        """ACP has no way to ask the editor for its diagnostics: nothing is claimed about them."""
        return None

    @property
    def approver(self) -> AcpApprover:
        return self._approver

    async def begin(self) -> None:
        """What the session has to say before its first run: what it did not connect, the
        settings it could not use."""
        for kind, said in self._session.take_notices():
            self._notice(kind, said)

    async def prepare(self) -> None:
        return None

    def emit(self, event: Event) -> None:
        """The core's EventSink: never raises (a broken client must not break the run)."""
        try:
            self._emit(event)
        except Exception:
            log.exception("could not report %s to the client", type(event).__name__)

    def _emit(self, event: Event) -> None:
        session_id = self._session.id
        lines = self._story.lines(event)
        match event:
            case TextDelta(text=delta):
                self._paragraphs.said(delta)
                self._client.update(session_id, message_chunk(delta))
            case Notice(kind=kind, text=said):
                self._notice(kind, said, lines)
            case ToolInputProgress(tool_use_id=use_id, name=name):
                call, first = self._calls.arriving(use_id, name)
                line = progress_line(event, self._locale) or ""
                self._client.update(
                    session_id, input_arriving(call, event, first, line, self._locale)
                )
            case ToolStarted(tool_use_id=use_id, name=name, input=tool_input):
                call = self._calls.start(self._session, use_id, name, tool_input)
                if call.opened:
                    started = tool_running(self._session, call, event, self._locale)
                    self._client.update(session_id, told(started, lines))
                else:
                    card = tool_started(self._session, call, event, self._locale)
                    self._client.update(session_id, told(card, lines))
            case ToolFinished(tool_use_id=use_id):
                ended = self._calls.finish(use_id)
                if ended is not None:
                    diff = self._diffs.pop(ended.id, None)
                    trail = self._trails.pop(ended.id, None)
                    done = tool_finished(ended, event, diff, trail)
                    self._client.update(session_id, told(done, lines))
            case UsageReported():
                session = self._run.session
                window = context_window(session.windows, session.settings.model)
                self._client.update(session_id, told(usage(event, window, self._locale), lines))
            case EditApplied(rel=rel) if lines:
                edited = self._calls.open_edit(self._session.root / rel)
                if edited is not None:
                    self._client.update(session_id, told(same_card(edited.id), lines))
            case Nested(parent=parent) if lines:
                self._inside(parent, lines)
            case PlanUpdated(plan=plan):  # design §2.12: the model's plan is ACP's `plan` update
                entries = [plan_entry(item.content, status=item.status) for item in plan]
                self._client.update(session_id, update_plan(entries))
            case _:
                return

    def _notice(self, kind: str, said: str, lines: list[str] | None = None) -> None:
        """A notice as its own quoted paragraph; `lines`, the story's lines for it (none for
        what only ACP says: its own start-up notices, the way on after a limit)."""
        chunk = notice_chunk(kind, said, self._paragraphs)
        self._client.update(self._session.id, told(chunk, lines or []))

    def _inside(self, parent: str, lines: list[str]) -> None:
        """A sub-agent's lines, shown in the card of the call it works for."""
        call = self._calls.by_use.get(parent)
        if call is None:
            return
        trail = self._trails.setdefault(call.id, [])
        trail.extend(line.strip() for line in lines)
        self._client.update(self._session.id, told(sub_agent(call.id, trail), lines))

    def _reviewing(self, change: FileChange) -> None:
        """The edit is checked: its card shows the diff (before any question about it)."""
        call = self._calls.open_edit(change.path)
        if call is not None:
            diff = tool_diff_content(
                self._session.client_path(change.path), change.after, change.before
            )
            self._client.update(self._session.id, tool_diff(call.id, diff))

    def _applied(self, change: FileChange, landed: str) -> None:
        self._run.edits.append(change.path)
        call = self._calls.open_edit(change.path)
        if call is not None:
            where = self._session.client_path(change.path)
            self._diffs[call.id] = tool_diff_content(where, landed, change.before)

    def unconfined(self, status: str) -> None:
        """Commands run unconfined in this folder: a warning the user cannot miss."""
        folder = self._session.cwd.name or str(self._session.cwd)
        self._notice("warning", text("acp.sandbox_off", self._locale, folder=folder, status=status))

    def finish(self, finished: RunFinished) -> None:
        """Close what is still open, then the way on after a limit and the bill."""
        self.finished = finished
        for call in self._calls.by_use.values():
            if not call.done:
                call.done = True
                self._client.update(self._session.id, tool_status(call.id, "failed"))
        if finished.status == "limit" and (hint := hint_for(finished, self._locale)) is not None:
            self._notice("hint", hint)
        bill = None
        if finished.usage.requests:
            bill = bill_line(finished.usage, self._run.session.usage, self._locale)
        # The story's close (why it stopped, the verdict, the bill), on the notices that say it.
        close = end_lines(finished, bill, self._locale)
        billed = close[-1:] if bill is not None else []
        before = close[: len(close) - len(billed)]
        if finished.verified is not None:  # the server's own verdict (design §2.10)
            word = text(f"verify.status.{finished.verified.status}", self._locale)
            self._notice("verified", f"{word}: {finished.verified.detail}", before)
            before = []
        if bill is not None:
            self._notice("bill", bill.strip(), [*before, *billed])
