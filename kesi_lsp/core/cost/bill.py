"""The bill of one run: every request it made, whoever made it (Day 18).

A run is no longer only the loop's own round-trips: a summary of old turns and a search
sub-agent call the model too, and the user pays for those requests like any other. So the run's
bill lives here, not in the loop, and every caller charges it the same way: one record per
request, priced, added to the session's total, and reported as a `UsageReported` whose
`purpose` lets the front end show a summary or a search as its own line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kesi_lsp.core.cost.meter import Usage, record
from kesi_lsp.core.events import EventSink, Purpose, UsageReported

if TYPE_CHECKING:
    from kesi_lsp.core.session import Session
    from kesi_lsp.core.stream import TurnResult


def usage_of(result: TurnResult, model: str) -> Usage | None:
    """One request's usage from how its round-trip ended (None: nothing arrived, no bill).

    A whole reply carries the final counts; an interrupted or broken stream only what arrived
    before it stopped, recorded as partial (Day 18: 沒有 usage 不記帳).
    """
    if result.message is not None:
        return record(result.message.usage, model)
    if result.snapshot is not None:
        return record(result.snapshot.usage, model, partial=True)
    return None


@dataclass
class RunBill:
    """What one run has cost so far, kept in step with its session's total."""

    session: Session
    emit: EventSink
    total: Usage = field(default_factory=Usage)

    def charge(
        self,
        result: TurnResult,
        *,
        purpose: Purpose = "turn",
        emit: EventSink | None = None,
        subtotal: Usage | None = None,
    ) -> Usage | None:
        """Record the request `result` ended, report it, and return its usage (None: none).

        `emit` overrides where the report goes (a sub-agent nests it); `subtotal` is the
        running total of the search this request belongs to, without this request.
        """
        request = usage_of(result, self.session.settings.model)
        if request is None:
            return None
        self.total = self.total + request
        self.session.usage = self.session.usage + request
        searched = subtotal + request if subtotal is not None else None
        report = UsageReported(
            request=request,
            run=self.total,
            session=self.session.usage,
            purpose=purpose,
            subtotal=searched,
        )
        (emit or self.emit)(report)
        return request
