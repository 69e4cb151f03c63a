"""Document synchronisation: pygls applies open/change/close itself; registering these
handlers is what makes the server ask for them (open/close, incremental changes, save).
A save changes what the disk holds for an open document (`DiskTexts`)."""

from __future__ import annotations

import logging
from pathlib import Path

from lsprotocol import types

from kesi_lsp.lsp.folders import uri_to_path
from kesi_lsp.lsp.server import KesiServer

log = logging.getLogger(__name__)


def did_open(ls: KesiServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    log.debug("opened %s v%s", doc.uri, doc.version)


def did_change(ls: KesiServer, params: types.DidChangeTextDocumentParams) -> None:
    log.debug("changed %s v%s", params.text_document.uri, params.text_document.version)


def _path(uri: str) -> Path | None:
    path = uri_to_path(uri)
    return path.resolve() if path is not None else None


def did_close(ls: KesiServer, params: types.DidCloseTextDocumentParams) -> None:
    log.debug("closed %s", params.text_document.uri)
    if (path := _path(params.text_document.uri)) is not None:
        ls.disk_texts.forget(path)


async def did_save(ls: KesiServer, params: types.DidSaveTextDocumentParams) -> None:
    """The disk changed: re-read it (off the event loop) for the list of unsaved files."""
    log.debug("saved %s", params.text_document.uri)
    if (path := _path(params.text_document.uri)) is not None:
        await ls.disk_texts.refresh([path])


def register(server: KesiServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))(did_save)
