"""The start-up baseline: a pygls 2 language server with no features at all."""

from __future__ import annotations

from pygls.lsp.server import LanguageServer

if __name__ == "__main__":
    LanguageServer("minimal", "0").start_io()
