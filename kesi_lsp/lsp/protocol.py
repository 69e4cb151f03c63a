"""The LSP protocol of the KeSi server: pygls' own, plus a look at each text change before
pygls applies it.

Change sets (design §2.9) follow the user's typing change by change: a change's range refers to
the text before it, and a whole-document change is only understood against the old text. pygls
applies the changes before any feature handler runs, so the server is shown each one first
(`KesiServer.before_change`), and each closing document's last text (`before_close`) while pygls
still has it. It also notes when the editor last sent anything (`KesiServer.busy`), and keeps
tracebacks off the wire: pygls answers a handler's unexpected exception with the exception's
text and its traceback in `data`; the editor shows such an answer as is, so it gets a sentence
instead, and the traceback stays in the server's log.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.protocol import LanguageServerProtocol, lsp_method

from kesi_lsp.catalog import Locale, text

log = logging.getLogger(__name__)


class KesiProtocol(LanguageServerProtocol):
    """pygls' protocol, telling the server about each text change before applying it, and
    noting when the editor last sent something."""

    last_message: float = 0.0

    def handle_message(self, message: Any) -> Any:
        self.last_message = time.monotonic()
        return super().handle_message(message)

    def _send_response(
        self, msg_id: Any, result: Any | None = None, error: types.ResponseError | None = None
    ) -> None:
        if error is not None and isinstance(error.data, dict) and "traceback" in error.data:
            find = getattr(self._server, "locale_for", None)
            locale: Locale = find(None) if callable(find) else "en"
            message = text("lsp.internal_error", locale, error=error.message)
            error = types.ResponseError(code=error.code, message=message)
        super()._send_response(msg_id, result, error)

    def refuse(self, msg_id: int | str | None, code: int, message: str) -> None:
        """Answer a message that cannot be handled (`reading.py`), and say so in the log."""
        log.warning("refusing a message from the client: %s", message)
        self._send_response(msg_id, error=types.ResponseError(code=code, message=message))

    def report_error(self, error: Exception) -> None:
        """What pygls' own loop does with a message its handlers fail on."""
        report = getattr(self._server, "report_server_error", None)
        if callable(report):
            report(error, JsonRpcException)

    def _observe(self, name: str, *args: object) -> None:
        hook = getattr(self._server, name, None)
        if hook is None:
            return
        try:
            hook(*args)
        except Exception:  # bookkeeping must never break the document's synchronisation
            log.exception("%s failed", name)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Iterator[Any]:
        for change in params.content_changes:
            self._observe("before_change", params.text_document.uri, change)
            self.workspace.update_text_document(params.text_document, change)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Iterator[Any]:
        self._observe("before_close", params.text_document.uri)
        self.workspace.remove_text_document(params.text_document.uri)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None
