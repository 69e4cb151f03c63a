"""What the scripted editor's other language servers report (`kesi/diagnostics`, §2.10).

A real editor runs pyright, eslint or rust-analyzer beside KeSi and knows what they report;
the scripted one is told (`publish`), counts every update per file the way the VS Code and
Neovim clients do, and answers `kesi/diagnostics {uris}` with `{items: [{uri, diagnostics,
changes}]}`. A test can replace `answer` with its own (one that fails, or never answers).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

DiagnosticsAnswer = Callable[[dict[str, Any]], Awaitable[Any] | Any]


class ReportedProblems:
    """The diagnostics each file has (LSP JSON, by URI) and how often they were updated."""

    def __init__(self) -> None:
        self.diagnostics: dict[str, list[dict[str, Any]]] = {}
        self.changes: dict[str, int] = {}
        self.answer: DiagnosticsAnswer = self.current

    def publish(self, uri: str, diagnostics: Sequence[dict[str, Any]]) -> None:
        """A language server reports `diagnostics` for `uri` (replacing what it said before)."""
        self.diagnostics[uri] = list(diagnostics)
        self.changes[uri] = self.changes.get(uri, 0) + 1

    def current(self, params: dict[str, Any]) -> dict[str, Any]:
        """The answer to `kesi/diagnostics`: what is reported now for each URI asked about."""
        items = [
            {
                "uri": uri,
                "diagnostics": self.diagnostics.get(uri, []),
                "changes": self.changes.get(uri, 0),
            }
            for uri in params.get("uris", [])
        ]
        return {"items": items}
