"""One run's side of the change sets: recording what it landed, telling the model what the user
did with it (design §2.9).

The tools hand their checked changes to `deliver`, which holds the file while the edit is on its
way (the editor's reports of it are the edit, not the user), and records what landed: `kept`
when the user reviewed it (`approvals: "ask"`), `pending` when it landed unreviewed
(`"acceptEdits"`, or a file granted for the session). A command is watched for the files it
deletes among those KeSi knows (read or changed), so undoing the run can restore them.
Before each request the loop asks `note` for what the user did since the last one.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from pathlib import Path

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.changes.hunks import diff_blocks, lines_of
from kesi_lsp.core.changes.notes import note_text
from kesi_lsp.core.changes.store import ChangeSets, Dropped
from kesi_lsp.core.events import EventSink, Notice
from kesi_lsp.core.paths import relative
from kesi_lsp.core.reads.texts import ReadTexts
from kesi_lsp.core.workspace import Delivery, DeliveryStatus, FileChange, WorkspaceView


@dataclass
class RunChanges:
    """The change sets of a run's session, seen from that run (its id and its task)."""

    changes: ChangeSets
    root: Path
    run_id: str
    task: str
    dropped: Dropped | None = None  # change sets the last recording dropped, until said

    async def deliver(self, view: WorkspaceView, change: FileChange, *, review: bool) -> Delivery:
        """`view.deliver(change)`, with the file held while the edit travels and what landed
        recorded before anything else can happen to it."""
        changes = self.changes
        with changes.holding(change.path):
            delivery = await view.deliver(change, review=review)
            if delivery.status is not DeliveryStatus.APPLIED:
                changes.landed_text(change.path, change.before)
                return delivery
            landed = delivery.text if delivery.text is not None else change.after
            old, new = lines_of(change.before), lines_of(landed)
            blocks = await asyncio.to_thread(diff_blocks, old, new)
            recorded = changes.record(
                self.run_id,
                self.task,
                change.path,
                change.rel,
                change.before,
                landed,
                state="kept" if review else "pending",
                blocks=blocks,
            )
        self.dropped = recorded.dropped or self.dropped
        return delivery

    def take_dropped(self) -> Dropped | None:
        dropped, self.dropped = self.dropped, None
        return dropped

    @contextlib.asynccontextmanager
    async def watching(self, known: ReadTexts) -> AsyncIterator[None]:
        """Around a command: note the files it deletes among those KeSi read or changed."""
        candidates = set(self.changes.paths()) | set(known.paths())
        existed = await asyncio.to_thread(_existing, candidates)
        try:
            yield
        finally:
            gone = await asyncio.to_thread(lambda: [p for p in existed if not p.exists()])
            for path in gone:
                base = self.changes.last_text(path) or known.get(path)
                if base is not None:
                    rel = self.changes.rel_of(path) or relative(self.root, path)
                    self.changes.record_deletion(self.run_id, self.task, path, rel, base)


def _existing(paths: Iterable[Path]) -> list[Path]:
    return [p for p in paths if p.is_file()]


def dropped_notice(dropped: Dropped, changes: ChangeSets, locale: Locale) -> Notice:
    """What the user is told when change sets were dropped for the memory limit."""
    megabytes = f"{changes.max_bytes / (1024 * 1024):g}"
    said = text(
        "changes.dropped",
        locale,
        count=len(dropped.run_ids),
        runs=changes.max_runs,
        megabytes=megabytes,
    )
    return Notice("info", said)


def emit_dropped(run: RunChanges, emit: EventSink, locale: Locale) -> None:
    dropped = run.take_dropped()
    if dropped is not None:
        emit(dropped_notice(dropped, run.changes, locale))


async def settle_all(changes: ChangeSets, view: WorkspaceView) -> None:
    """Check every file with open hunks against its text (the buffer, else what `view` reads)."""
    for path in changes.paths():
        if not any(h.state in ("pending", "undone") for h in changes.hunks_at(path)):
            continue
        disk: str | None = None
        if changes.needs_disk(path):
            try:
                disk = (await view.read_text(path)).text
            except (OSError, UnicodeDecodeError):
                disk = None
        changes.settle(path, disk)


async def note(changes: ChangeSets, view: WorkspaceView, locale: Locale) -> str | None:
    """What the user did with the agent's changes since the model last heard (None: nothing);
    taking it empties the list."""
    await settle_all(changes, view)
    said = note_text(changes.transitions, locale)
    changes.transitions = []
    return said
