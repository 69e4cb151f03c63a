"""Code lenses over KeSi's pending hunks (design §2.9): "KeSi: Keep" and "KeSi: Undo" on each,
"Keep all" and "Undo all" on the first of a file. Answering reads no disk for an open document
and never calls the model: editors ask for lenses after every change."""

from __future__ import annotations

from lsprotocol import types

from kesi_lsp.core import FileChanges
from kesi_lsp.lsp.change_marks import lenses
from kesi_lsp.lsp.server import KesiServer


async def code_lens(ls: KesiServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    feed = ls.change_feed
    path = feed.path_of(uri)
    if path is None:
        return []
    files: list[FileChanges] = []
    current: str | None = None
    locale = ls.locale_for(None)
    for changes in feed.tracking(path):
        current = await feed.text_now(changes, path)
        files.extend(changes.files_at(path))
    for session in ls.sessions.all():
        if session.changes.tracks(path):
            locale = session.settings.locale
    if not files or current is None:
        return []
    return lenses(uri, files, locale)


def register(server: KesiServer) -> None:
    server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))(
        code_lens
    )
