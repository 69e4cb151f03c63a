"""`kesi/verdict`: a run's verdict changed after it ended (issue 32).

A run verified by a passing check reads "verified before your undo" once the user undoes what
the check ran on, and `verified` again when the editor's redo brings it back. The change feed
asks here after every publication of the hunks (so an undo through `kesi.undo`, a lens, or the
editor's own undo all count); each change is told once: `kesi/verdict` to our clients (the
status bar and the panel show it), one log line to the others.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from lsprotocol import types

from kesi_lsp.catalog import text
from kesi_lsp.core import ChangeSet, Session
from kesi_lsp.lsp.contract import VerdictChangedParams
from kesi_lsp.lsp.folders import path_to_uri
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.stream import verdict_view

VERDICT: str = "kesi/verdict"


class VerdictFeed:
    """Remembers, per run, whether its verdict was last told as standing or as undone."""

    def __init__(self, link: EditorLink, sessions: Callable[[], list[Session]]) -> None:
        self._link = link
        self._sessions = sessions
        self._undone: dict[str, bool] = {}

    def check(self) -> None:
        for session in self._sessions():
            for change_set in session.changes.sets:
                self._check(session, change_set)

    def _check(self, session: Session, change_set: ChangeSet) -> None:
        verdict = change_set.verdict
        if verdict is None or verdict.status != "verified":
            return
        locale = session.settings.locale
        now = change_set.standing(locale)
        if now is None or now.before_undo == self._undone.get(change_set.run_id, False):
            return
        self._undone[change_set.run_id] = now.before_undo
        view = verdict_view(now, locale)
        if view is None or self._link.wire.closed:
            return
        run = change_set.label(locale, verdict=False)
        line = text("story.verdict", locale, run=run, status=view.text, detail=view.detail)
        with contextlib.suppress(Exception):  # a closing client must not disturb the feed
            if self._link.features.stream:
                params = VerdictChangedParams(
                    run_id=change_set.run_id,
                    uri=path_to_uri(session.root),
                    verified=view,
                    line=line,
                )
                self._link.wire.notify(VERDICT, params)
            else:
                log = types.LogMessageParams(type=types.MessageType.Info, message=line)
                self._link.wire.notify(types.WINDOW_LOG_MESSAGE, log)
