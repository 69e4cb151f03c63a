"""Logging: to stderr (and `--log-file`), never stdout; warnings also to the editor.

stdout is the JSON-RPC channel. The server's own log goes to stderr, which every editor keeps
(VS Code's output channel, Neovim's LSP log); warnings and errors are also sent as
`window/logMessage` once the client is initialized, so a user sees them without digging.
"""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

from lsprotocol import types

from kesi_lsp.lsp.wire import Wire

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# `-v` logs whole LSP messages (pygls does), and settings may carry an API key.
_SECRETS = (
    (re.compile(r"""(["']?apiKey["']?\s*[:=]\s*)(["'])(?:(?!\2).)*\2"""), r"\1\2***\2"),
    (re.compile(r"sk-ant-[A-Za-z0-9_\-]+"), "sk-ant-***"),
)


class RedactSecrets(logging.Filter):
    """Replace API keys in log records by `***` before any handler writes them."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = message
        for pattern, replacement in _SECRETS:
            redacted = pattern.sub(replacement, redacted)
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def configure_logging(verbose: bool, log_file: str | None) -> None:
    """stderr at INFO (DEBUG with -v) for KeSi, WARNING for libraries; plus an optional file."""
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_file:
        Path(log_file).expanduser().parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(Path(log_file).expanduser(), encoding="utf-8"))
    root = logging.getLogger()
    for handler in handlers:
        handler.setFormatter(logging.Formatter(FORMAT))
        handler.addFilter(RedactSecrets())
        root.addHandler(handler)
    root.setLevel(logging.DEBUG if verbose else logging.WARNING)
    logging.getLogger("kesi_lsp").setLevel(logging.DEBUG if verbose else logging.INFO)


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
