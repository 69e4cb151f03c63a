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
from kesi_lsp.lsp.args import CommandError, one_object, opt_str
from kesi_lsp.lsp.change_listing import listing, listing_lines
from kesi_lsp.lsp.commands import target
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


def _folder_session(ls: KesiServer, command: str, obj: Any) -> tuple[Folder, Path | None]:
    folder, path = target(ls, opt_str(command, obj, "uri"))
    return folder, (path if path is not None and path != folder.path else None)


async def _settled(ls: KesiServer, changes: ChangeSets) -> dict[Path, str | None]:
    """Settle every file of `changes` against its text now; the texts, by path."""
    return {p: await ls.change_feed.text_now(changes, p) for p in changes.paths()}


async def changes_command(ls: KesiServer, *args: Any) -> dict[str, object]:
    obj = one_object(CHANGES, args)
    folder, path = _folder_session(ls, CHANGES, obj)
    session = ls.sessions.peek(folder)
    locale = ls.locale_for(folder)
    if session is None:
        lines = [text("changes.list.none", locale)]
        _say(ls, lines[0])
        return {"runs": [], "lines": lines}
    texts = await _settled(ls, session.changes)
    result = listing(ls.link, session.changes, texts, path)
    lines = listing_lines(session.changes, path, locale)
    _say(ls, "\n".join(lines))
    return {**result, "lines": lines}


def _refused(refusal: ChangeRefusal, locale: Locale) -> CommandError:
    return CommandError(refusal.message(locale), refusal.reason)


def _session(ls: KesiServer, folder: Folder, locale: Locale) -> Session:
    session = ls.sessions.peek(folder)
    if session is None or not session.changes.sets:
        raise CommandError(text("changes.none", locale), "noChanges")
    return session


def _select(
    changes: ChangeSets, obj: Any, command: str, path: Path | None, locale: Locale
) -> ChangeTarget:
    """What `obj` names (`all`: every hunk of the folder), or the refusal saying why not."""
    if obj.get("all") is True:
        files = [f for s in changes.sets for f in s.files.values()]
        return ChangeTarget(tuple((f, h) for f in files for h in f.hunks), tuple(files), True)
    found = select_changes(
        changes,
        run_id=opt_str(command, obj, "runId"),
        path=path,
        hunk_id=opt_str(command, obj, "hunkId"),
    )
    if isinstance(found, ChangeRefusal):
        raise _refused(found, locale)
    return found


def _answer(
    ls: KesiServer, action: str, outcome: ChangeOutcome, locale: Locale, restored: Restored | None
) -> dict[str, object]:
    lines = outcome_lines("keep" if action == "keep" else "undo", outcome, locale)
    failures = restored.failed if restored is not None else {}
    rels = restored.rels if restored is not None else {}
    if failures and lines == [text("changes.nothing", locale)]:
        lines = []
    for path, reason in failures.items():
        lines.append(text("changes.skip.failed", locale, item=rels[path], reason=reason))
    message = "\n".join(lines)
    _say(ls, message)
    return {
        "message": message,
        "lines": lines,
        "done": [_hunk_json(rel, hunk) for rel, hunk in outcome.done],
        "already": [_hunk_json(rel, hunk) for rel, hunk in outcome.already],
        "skipped": [
            {**_hunk_json(s.rel, s.hunk), "reason": s.key.rsplit(".", 1)[-1]}
            for s in outcome.skipped
        ],
        "failed": [{"path": rels[p], "reason": r} for p, r in failures.items()],
    }


def _hunk_json(rel: str, hunk: Hunk | None) -> dict[str, object]:
    return {"path": rel, "hunkId": hunk.id if hunk is not None else None}


async def keep_command(ls: KesiServer, *args: Any) -> dict[str, object]:
    obj = one_object(KEEP, args)
    folder, path = _folder_session(ls, KEEP, obj)
    locale = ls.locale_for(folder)
    session = _session(ls, folder, locale)
    await _settled(ls, session.changes)
    outcome = keep_changes(session.changes, _select(session.changes, obj, KEEP, path, locale))
    await ls.change_feed.settled()
    return _answer(ls, "keep", outcome, locale, None)


async def _undo(
    ls: KesiServer, folder: Folder, session: Session, chosen: ChangeTarget, locale: Locale
) -> dict[str, object]:
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


async def undo_command(ls: KesiServer, *args: Any) -> dict[str, object]:
    obj = one_object(UNDO, args)
    folder, path = _folder_session(ls, UNDO, obj)
    locale = ls.locale_for(folder)
    session = _session(ls, folder, locale)
    await _settled(ls, session.changes)
    return await _undo(
        ls, folder, session, _select(session.changes, obj, UNDO, path, locale), locale
    )


async def undo_run_command(ls: KesiServer, *args: Any) -> dict[str, object]:
    obj = one_object(UNDO_RUN, args)
    folder, _ = _folder_session(ls, UNDO_RUN, obj)
    locale = ls.locale_for(folder)
    if ls.runs.active_in(folder.path) is not None:
        raise CommandError(text("changes.undo_busy", locale), "busy")
    session = _session(ls, folder, locale)
    run_id = opt_str(UNDO_RUN, obj, "runId")
    found = select_changes(session.changes, run_id=run_id)
    if isinstance(found, ChangeRefusal):
        raise _refused(found, locale)
    return await _undo(ls, folder, session, found, locale)


def register(server: KesiServer) -> None:
    server.command(CHANGES)(changes_command)
    server.command(KEEP)(keep_command)
    server.command(UNDO)(undo_command)
    server.command(UNDO_RUN)(undo_run_command)
