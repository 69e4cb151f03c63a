"""Document synchronisation: pygls applies open/change/close itself; registering these
handlers is what makes the server ask for them (open/close, incremental changes, save)."""

from __future__ import annotations

import logging

from lsprotocol import types

from kesi_lsp.lsp.server import KesiServer

log = logging.getLogger(__name__)


def did_open(ls: KesiServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    log.debug("opened %s v%s", doc.uri, doc.version)


def did_change(ls: KesiServer, params: types.DidChangeTextDocumentParams) -> None:
    log.debug("changed %s v%s", params.text_document.uri, params.text_document.version)


def did_close(ls: KesiServer, params: types.DidCloseTextDocumentParams) -> None:
    log.debug("closed %s", params.text_document.uri)


def did_save(ls: KesiServer, params: types.DidSaveTextDocumentParams) -> None:
    log.debug("saved %s", params.text_document.uri)


def register(server: KesiServer) -> None:
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))(did_save)
