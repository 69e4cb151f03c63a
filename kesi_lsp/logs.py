"""Logging for both servers: to stderr (and `--log-file`), never stdout, secrets masked.

stdout is the JSON-RPC channel (`kesi_lsp.stdio`). The log goes to stderr, which every client
keeps (VS Code's output channel, Neovim's LSP log, Zed's ACP logs); `-v` logs whole messages,
and settings may carry an API key, so secrets are masked before any handler writes a record: by
the core's redactor (the tools' own, issue 29: token formats and the values of the server's
credential variables), and an `apiKey` setting's value whatever its shape.
"""

from __future__ import annotations

import logging
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

from kesi_lsp.core import Redactor, redactor_for

FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

# `-v` logs whole LSP messages (pygls does), and settings may carry an API key.
_API_KEY_SETTING = re.compile(r"""(["']?apiKey["']?\s*[:=]\s*)(["'])(?:(?!\2).)*\2""")


class RedactSecrets(logging.Filter):
    """Replace secrets in log records by the redactor's markers before any handler writes them."""

    def __init__(self, environ: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self._redact: Redactor = redactor_for(os.environ if environ is None else environ, "en")

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self._redact(_API_KEY_SETTING.sub(r"\1\2***\2", message))
        if redacted != message:
            record.msg, record.args = redacted, None
        return True


def configure_logging(verbose: bool, log_file: str | None, *, quiet_stderr: bool = False) -> None:
    """stderr at INFO (DEBUG with -v) for KeSi, WARNING for libraries; plus an optional file.

    `quiet_stderr` (the ACP server): stderr carries warnings and errors only, unless `-v`. ACP
    clients such as agent-shell show the agent's stderr in the user's transcript, where a line
    per session and run is noise; `--log-file` still gets KeSi's INFO lines.
    """
    stderr = logging.StreamHandler(sys.stderr)
    if quiet_stderr and not verbose:
        stderr.setLevel(logging.WARNING)
    handlers: list[logging.Handler] = [stderr]
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
