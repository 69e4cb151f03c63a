"""Document synchronisation: pygls applies open/change/close itself; registering these
handlers is what makes the server ask for them (open/close, incremental changes, save).

What the disk holds for each open document (`DiskTexts`) is read when it opens (the text
the editor loaded, so a later command's change to it is noticed) and after each save; a
change that makes an outdated buffer equal the disk again (the editor reloaded it) ends its
outdatedness."""

from __future__ import annotations

import logging
from pathlib import Path

from lsprotocol import types

from kesi_lsp.lsp.folders import uri_to_path
from kesi_lsp.lsp.server import KesiServer

log = logging.getLogger(__name__)


def _path(uri: str) -> Path | None:
    path = uri_to_path(uri)
    return path.resolve() if path is not None else None


async def did_open(ls: KesiServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    log.debug("opened %s v%s", doc.uri, doc.version)
    if (path := _path(doc.uri)) is not None:
        ls.change_feed.opened(doc.uri)
        await ls.documents.disk.refresh([path])


def did_change(ls: KesiServer, params: types.DidChangeTextDocumentParams) -> None:
    log.debug("changed %s v%s", params.text_document.uri, params.text_document.version)
    if (path := _path(params.text_document.uri)) is not None:
        ls.documents.disk.settle(path)


def did_close(ls: KesiServer, params: types.DidCloseTextDocumentParams) -> None:
    log.debug("closed %s", params.text_document.uri)
    if (path := _path(params.text_document.uri)) is not None:
        ls.documents.disk.forget(path)


async def did_save(ls: KesiServer, params: types.DidSaveTextDocumentParams) -> None:
    """The editor wrote the file: re-read it (off the event loop) for the list of unsaved
    files. Typing that arrives before the read lands is unsaved typing, not a conflict."""
    log.debug("saved %s", params.text_document.uri)
    if (path := _path(params.text_document.uri)) is not None:
        await ls.documents.disk.refresh([path], written_by_editor=True)


def register(server: KesiServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))(did_save)
