"""After a change settles, tell the model what the editor's language servers newly report.

An edit that lands is not an edit that works (Day 09: 編輯成功也不代表任務成功). The editor's
other language servers look at the changed file within a second or two; KeSi waits for them
(bounded: `SETTLE_SECONDS`), compares what they report with what they reported just before the
change, and appends the errors and warnings that are new to the tool result ("New problems the
editor reports: rates.py:9 error: … (pyright)"), so the model fixes them in the same run. The
same happens after a command that changed files open in the editor.

Problems are compared without their line numbers (an edit above a warning moves it, it does
not make it new). The watch also remembers, per file, what was reported before the run first
changed it, so verification can weigh the errors the whole run introduced, not only the last
edit's. An editor that answers with an error or not in time costs one sentence in the result
("the editor's diagnostics were unavailable"), never the run.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.diagnostics.editor import (
    EditorProblem,
    EditorProblems,
    ProblemsUnavailableError,
    Snapshot,
)
from kesi_lsp.core.events import Event, EventSink, ProblemsReported

SETTLE_SECONDS: Final = 2.0
"""The longest wait for the other language servers after a change."""
UNWATCHED_SECONDS: Final = 0.5
"""The wait when the editor says no language server has ever reported on the changed files
(a text file, a new file): one may still start, but the run should not pay 2 s per edit."""
POLL_SECONDS: Final = 0.2
QUIET_SECONDS: Final = 0.3
"""Once every file was looked at again, this long without a new update means settled."""
BASELINE_SECONDS: Final = 1.0
"""The longest wait for the state before a change."""
MAX_LISTED: Final = 10
MAX_WATCHED: Final = 50
"""A command is watched for changes to at most this many open files."""

DiskSignature = tuple[int, int, int] | None


def disk_signatures(paths: Sequence[Path]) -> dict[Path, DiskSignature]:
    """(inode, size, mtime in ns) of each file on disk: a command that rewrites one changes it."""
    out: dict[Path, DiskSignature] = {}
    for path in paths:
        try:
            info = path.stat()
        except OSError:
            out[path] = None
        else:
            out[path] = (info.st_ino, info.st_size, info.st_mtime_ns)
    return out


def _tell(emit: EventSink, event: Event) -> None:
    with contextlib.suppress(Exception):  # a broken sink must not turn a report into a failure
        emit(event)


@dataclass(frozen=True)
class Before:
    """What the editor reported just before a change (None: it could not say, and why)."""

    snapshot: Snapshot | None
    reason: str = ""


def new_problems(
    before: Sequence[EditorProblem], after: Sequence[EditorProblem]
) -> list[EditorProblem]:
    """The problems of `after` that `before` did not have (as many times as it had them).

    A problem still on its line is the same one; the rest are matched in order, whatever their
    lines (an edit above them moved them).
    """
    exact = Counter((p.identity(), p.line) for p in before)
    unmatched: list[EditorProblem] = []
    for problem in after:
        key = (problem.identity(), problem.line)
        if exact[key] > 0:
            exact[key] -= 1
        else:
            unmatched.append(problem)
    left: Counter[tuple[str, str, str | None, str | None, str]] = Counter()
    for (identity, _), count in exact.items():
        left[identity] += count
    out: list[EditorProblem] = []
    for problem in unmatched:
        if left[problem.identity()] > 0:
            left[problem.identity()] -= 1
        else:
            out.append(problem)
    return out


def _all(snapshot: Snapshot, paths: Sequence[Path]) -> list[EditorProblem]:
    return [p for path in paths for p in snapshot.problems.get(path, ())]


def _looked_again(before: Snapshot, now: Snapshot, paths: Sequence[Path]) -> bool:
    """Every file was updated since `before` (or, without counts, its problems changed)."""
    for path in paths:
        old, new = before.changes.get(path), now.changes.get(path)
        if old is not None or new is not None:
            if new is None or (old is not None and new <= old):
                return False
        elif before.problems.get(path, ()) == now.problems.get(path, ()):
            return False
    return True


def describe(problem: EditorProblem, locale: Locale) -> str:
    """`rates.py:9 error: "x" is not defined (pyright)`."""
    origin = " ".join(part for part in (problem.source, problem.code) if part)
    return text(
        "problems.item_origin" if origin else "problems.item",
        locale,
        path=problem.rel,
        line=problem.line,
        severity=text(f"problems.{problem.severity}", locale),
        message=" ".join(problem.message.split()),
        origin=origin,
    )


class ProblemWatch:
    """The editor's diagnostics around one run's changes."""

    def __init__(
        self,
        editor: EditorProblems,
        locale: Locale,
        *,
        settle: float = SETTLE_SECONDS,
        unwatched: float = UNWATCHED_SECONDS,
        poll: float = POLL_SECONDS,
        quiet: float = QUIET_SECONDS,
    ) -> None:
        self._editor = editor
        self.locale = locale
        self._settle, self._unwatched = settle, unwatched
        self._poll, self._quiet = poll, quiet
        self._run_start: dict[Path, tuple[EditorProblem, ...]] = {}

    def open_files(self) -> tuple[Path, ...]:
        """The files open in the editor (at most MAX_WATCHED)."""
        return self._editor.open_files()[:MAX_WATCHED]

    async def before(self, paths: Sequence[Path]) -> Before:
        """Take the state before a change of `paths` (the first one of the run is kept)."""
        try:
            snapshot = await self._editor.snapshot(paths, BASELINE_SECONDS)
        except ProblemsUnavailableError as exc:
            return Before(None, str(exc))
        for path in paths:
            self._run_start.setdefault(path, snapshot.problems.get(path, ()))
        return Before(snapshot)

    async def after(
        self, paths: Sequence[Path], rels: Sequence[str], before: Before, emit: EventSink
    ) -> str:
        """Wait for the change to settle; report it; return the sentence for the tool result."""
        checked = tuple(rels)
        if before.snapshot is None:
            return self._unavailable(checked, before.reason, emit)
        try:
            now = await self._settled(paths, before.snapshot)
        except ProblemsUnavailableError as exc:
            return self._unavailable(checked, str(exc), emit)
        new = new_problems(_all(before.snapshot, paths), _all(now, paths))
        outstanding = [
            p
            for path in paths
            if path in self._run_start
            for p in new_problems(self._run_start[path], now.problems.get(path, ()))
            if p.severity == "error"
        ]
        _tell(emit, ProblemsReported(checked, tuple(new), tuple(outstanding)))
        return self._words(checked, new)

    def _bound(self, paths: Sequence[Path], before: Snapshot) -> float:
        """How long to wait: short when the editor counts updates and none ever came."""
        counts = [before.changes.get(path) for path in paths]
        if counts and all(count == 0 for count in counts):
            return self._unwatched
        return self._settle

    async def _settled(self, paths: Sequence[Path], before: Snapshot) -> Snapshot:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._bound(paths, before)
        last: Snapshot | None = None
        quiet_since = loop.time()
        while True:
            await asyncio.sleep(min(self._poll, max(0.0, deadline - loop.time())))
            remaining = max(0.05, deadline - loop.time())
            now = await self._editor.snapshot(paths, remaining)
            if last is None or now != last:
                last, quiet_since = now, loop.time()
            if _looked_again(before, now, paths) and loop.time() - quiet_since >= self._quiet:
                return now
            if loop.time() >= deadline:
                return now

    def _unavailable(self, checked: tuple[str, ...], reason: str, emit: EventSink) -> str:
        _tell(emit, ProblemsReported(checked, available=False))
        return text("problems.unavailable", self.locale, reason=reason)

    def _words(self, checked: Sequence[str], new: Sequence[EditorProblem]) -> str:
        sep = text("common.list_sep", self.locale)
        if not new:
            return text("problems.none_new", self.locale, files=sep.join(checked))
        lines = [text("problems.new", self.locale)]
        lines += [f"- {describe(p, self.locale)}" for p in new[:MAX_LISTED]]
        if len(new) > MAX_LISTED:
            lines.append(text("problems.more", self.locale, count=len(new) - MAX_LISTED))
        return "\n".join(lines)
