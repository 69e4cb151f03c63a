"""The LSP server's warnings, also in the editor (`window/logMessage`).

The server's own log goes to stderr (`kesi_lsp.logs`), which every editor keeps (VS Code's
output channel, Neovim's LSP log); warnings and errors are also sent as `window/logMessage`
once the client is initialized, so a user sees them without digging.
"""

from __future__ import annotations

import logging

from lsprotocol import types

from kesi_lsp.logs import RedactSecrets
from kesi_lsp.lsp.wire import Wire


class ClientLogHandler(logging.Handler):
    """Forward KeSi's warnings and errors to the editor as `window/logMessage`."""

    def __init__(self, wire: Wire) -> None:
        super().__init__(logging.WARNING)
        self.addFilter(RedactSecrets())
        self._wire = wire
        self._busy = False

    def emit(self, record: logging.LogRecord) -> None:
        if self._busy or self._wire.closed:
            return
        self._busy = True
        try:
            kind = (
                types.MessageType.Error
                if record.levelno >= logging.ERROR
                else (types.MessageType.Warning)
            )
            message = f"[kesi] {record.getMessage()}"
            self._wire.notify(
                types.WINDOW_LOG_MESSAGE, types.LogMessageParams(type=kind, message=message)
            )
        finally:
            self._busy = False


def attach_client_log(wire: Wire) -> None:
    """Send KeSi's warnings to this client (replacing a previous client's handler)."""
    logger = logging.getLogger("kesi_lsp")
    for handler in [h for h in logger.handlers if isinstance(h, ClientLogHandler)]:
        logger.removeHandler(handler)
    logger.addHandler(ClientLogHandler(wire))
