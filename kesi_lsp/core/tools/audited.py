"""An edit's record in the audit log (`core.audit`): its size, who let it land, what became of it.

Apart from `files.py` so the edit tools stay about editing. The size is in hunks as the change
sets count them (`changes.hunks.diff_blocks`), worked out off the event loop (a large file's
diff takes a while).
"""

from __future__ import annotations

import asyncio

from kesi_lsp.core.changes.hunks import diff_blocks, lines_of
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange


def _hunks(before: str | None, after: str) -> int:
    return len(diff_blocks(lines_of(before), lines_of(after)))


def _outcome(change: FileChange, delivery: Delivery, review: bool) -> str:
    if delivery.status is DeliveryStatus.REJECTED:
        return "rejected"
    if delivery.status is DeliveryStatus.FAILED:
        return "failed"
    # What landed differs from the proposal: the user kept some hunks (or the editor reformatted).
    reshaped = delivery.text is not None and delivery.text != change.after
    return "partial" if review and reshaped else "applied"


async def audit_edit(
    ctx: ToolContext, change: FileChange, delivery: Delivery | None, *, review: bool
) -> None:
    """Record `change` (None `delivery`: an edit rule denied it before anything was shown)."""
    trail = ctx.audit
    if trail is None:
        return
    hunks = await asyncio.to_thread(_hunks, change.before, change.after)
    if delivery is None:
        decided_by, answer, outcome = "rule", None, "rejected"
    elif review:
        decided_by, outcome = "user", _outcome(change, delivery, review)
        answer = delivery.choice.value if delivery.status is not DeliveryStatus.FAILED else None
    else:
        decided_by, answer = ctx.gate.edit_decider(change.path), None
        outcome = _outcome(change, delivery, review)
    trail.edit(
        change.tool,
        change.rel,
        hunks=hunks,
        reviewed=review,
        decided_by=decided_by,
        answer=answer,
        outcome=outcome,
    )
