"""`kesi.changes`, `kesi.keep`, `kesi.undo`, `kesi.undoRun` (design §2.9).

Each takes one object argument: `uri` names the folder (and, when it is a file, the file),
`runId` a run, `hunkId` one hunk; without them they act on the newest run of the folder.
`kesi.keep {all: true}` keeps every pending hunk of the folder. Every answer says what was done,
what was already so (a second window, a stale lens: nothing happens twice) and what was left
alone and why, and its `lines` (also joined as `message`) say it in the session's words, the
listing's too; editors without a KeSi client also get them as a message. An undo travels as one
`workspace/applyEdit` (`restore.py`), so the editor's own undo brings it back.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import (
    ChangeOutcome,
    ChangeRefusal,
    ChangeSets,
    ChangeTarget,
    Hunk,
    Session,
    keep_changes,
    outcome_lines,
    plan_undo,
    select_changes,
    undone,
)
from kesi_lsp.lsp.args import CommandError, read_args
from kesi_lsp.lsp.change_listing import listing, listing_lines
from kesi_lsp.lsp.commands import target
from kesi_lsp.lsp.contract import (
    ChangeOutcomeResult,
    ChangesResult,
    FailedFile,
    FolderArgs,
    HunkRef,
    KeepArgs,
    SkippedHunk,
    UndoArgs,
    UndoRunArgs,
)
from kesi_lsp.lsp.folders import Folder
from kesi_lsp.lsp.restore import Restored, restore
from kesi_lsp.lsp.server import KesiServer

CHANGES: Final = "kesi.changes"
KEEP: Final = "kesi.keep"
UNDO: Final = "kesi.undo"
UNDO_RUN: Final = "kesi.undoRun"


def _say(ls: KesiServer, message: str) -> None:
    """Editors without a KeSi client (Helix, eglot) would not show a command's answer."""
    if not ls.features.stream:
        ls.show(message)


def _folder_session(ls: KesiServer, uri: str | None) -> tuple[Folder, Path | None]:
    folder, path = target(ls, uri)
    return folder, (path if path is not None and path != folder.path else None)


async def _settled(ls: KesiServer, changes: ChangeSets) -> dict[Path, str | None]:
    """Settle every file of `changes` against its text now; the texts, by path."""
    return {p: await ls.change_feed.text_now(changes, p) for p in changes.paths()}


async def changes_command(ls: KesiServer, *args: Any) -> ChangesResult:
    folder, path = _folder_session(ls, read_args(CHANGES, args, FolderArgs).uri)
    session = ls.sessions.peek(folder)
    locale = ls.locale_for(folder)
    if session is None:
        lines = [text("changes.list.none", locale)]
        _say(ls, lines[0])
        return ChangesResult(runs=[], lines=lines)
    texts = await _settled(ls, session.changes)
    runs = listing(ls.link, session.changes, texts, path, locale)
    lines = listing_lines(session.changes, path, locale)
    _say(ls, "\n".join(lines))
    return ChangesResult(runs=runs, lines=lines)


def _refused(refusal: ChangeRefusal, locale: Locale) -> CommandError:
    return CommandError(refusal.message(locale), refusal.reason)


def _session(ls: KesiServer, folder: Folder, locale: Locale) -> Session:
    session = ls.sessions.peek(folder)
    if session is None or not session.changes.sets:
        raise CommandError(text("changes.none", locale), "noChanges")
    return session


def _select(
    changes: ChangeSets, arg: KeepArgs | UndoArgs, path: Path | None, locale: Locale
) -> ChangeTarget:
    """What `arg` names (`all`: every hunk of the folder), or the refusal saying why not."""
    if isinstance(arg, KeepArgs) and arg.all is True:
        files = [f for s in changes.sets for f in s.files.values()]
        return ChangeTarget(tuple((f, h) for f in files for h in f.hunks), tuple(files), True)
    found = select_changes(
        changes,
        run_id=arg.run_id,
        path=path,
        hunk_id=arg.hunk_id,
    )
    if isinstance(found, ChangeRefusal):
        raise _refused(found, locale)
    return found


def _answer(
    ls: KesiServer, action: str, outcome: ChangeOutcome, locale: Locale, restored: Restored | None
) -> ChangeOutcomeResult:
    lines = outcome_lines("keep" if action == "keep" else "undo", outcome, locale)
    failures = restored.failed if restored is not None else {}
    rels = restored.rels if restored is not None else {}
    if failures and lines == [text("changes.nothing", locale)]:
        lines = []
    for path, reason in failures.items():
        lines.append(text("changes.skip.failed", locale, item=rels[path], reason=reason))
    message = "\n".join(lines)
    _say(ls, message)
    return ChangeOutcomeResult(
        message=message,
        lines=lines,
        done=[_hunk_ref(rel, hunk) for rel, hunk in outcome.done],
        already=[_hunk_ref(rel, hunk) for rel, hunk in outcome.already],
        skipped=[
            SkippedHunk(
                path=s.rel,
                hunk_id=s.hunk.id if s.hunk is not None else None,
                reason=s.key.rsplit(".", 1)[-1],
            )
            for s in outcome.skipped
        ],
        failed=[FailedFile(path=rels[p], reason=r) for p, r in failures.items()],
    )


def _hunk_ref(rel: str, hunk: Hunk | None) -> HunkRef:
    return HunkRef(path=rel, hunk_id=hunk.id if hunk is not None else None)


async def keep_command(ls: KesiServer, *args: Any) -> ChangeOutcomeResult:
    arg = read_args(KEEP, args, KeepArgs)
    folder, path = _folder_session(ls, arg.uri)
    locale = ls.locale_for(folder)
    session = _session(ls, folder, locale)
    await _settled(ls, session.changes)
    outcome = keep_changes(session.changes, _select(session.changes, arg, path, locale))
    await ls.change_feed.settled()
    return _answer(ls, "keep", outcome, locale, None)


async def _undo(
    ls: KesiServer, folder: Folder, session: Session, chosen: ChangeTarget, locale: Locale
) -> ChangeOutcomeResult:
    changes = session.changes
    texts = await _settled(ls, changes)
    plan = plan_undo(changes, chosen, texts)
    with contextlib.ExitStack() as holding:
        for item in plan.files:
            holding.enter_context(changes.holding(item.path))
        restored = await restore(ls.link, plan, folder.path, locale)
        outcome = undone(changes, plan, restored.landed)
    await ls.change_feed.settled()
    return _answer(ls, "undo", outcome, locale, restored)


async def undo_command(ls: KesiServer, *args: Any) -> ChangeOutcomeResult:
    arg = read_args(UNDO, args, UndoArgs)
    folder, path = _folder_session(ls, arg.uri)
    locale = ls.locale_for(folder)
    session = _session(ls, folder, locale)
    await _settled(ls, session.changes)
    return await _undo(ls, folder, session, _select(session.changes, arg, path, locale), locale)


async def undo_run_command(ls: KesiServer, *args: Any) -> ChangeOutcomeResult:
    arg = read_args(UNDO_RUN, args, UndoRunArgs)
    folder, _ = _folder_session(ls, arg.uri)
    locale = ls.locale_for(folder)
    if ls.runs.active_in(folder.path) is not None:
        raise CommandError(text("changes.undo_busy", locale), "busy")
    session = _session(ls, folder, locale)
    found = select_changes(session.changes, run_id=arg.run_id)
    if isinstance(found, ChangeRefusal):
        raise _refused(found, locale)
    return await _undo(ls, folder, session, found, locale)


def register(server: KesiServer) -> None:
    server.command(CHANGES)(changes_command)
    server.command(KEEP)(keep_command)
    server.command(UNDO)(undo_command)
    server.command(UNDO_RUN)(undo_run_command)
