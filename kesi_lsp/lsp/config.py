"""Where the LSP server's settings stand: the layers an editor delivers, per workspace folder.

Settings arrive as JSON from three places (design §2.1): `initializationOptions`, the
`workspace/configuration` section `kesi` (per workspace folder), and
`workspace/didChangeConfiguration`. What is valid is the core's (`parse_settings`, the same
validation the ACP adapter uses); here is only which layer wins and what was already reported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from kesi_lsp.catalog import Editor
from kesi_lsp.core import ParsedSettings, parse_settings

# Settings the editor plugins read themselves (VS Code's `kesi.serverPath`, `kesi.review`,
# `kesi.trace.server`); they arrive with the section and are nobody's typo.
CLIENT_KEYS: Final = frozenset({"serverPath", "review", "trace"})


@dataclass
class ConfigStore:
    """Where each layer of settings currently stands, per workspace folder.

    Layers, later ones winning: `initializationOptions`; `workspace`, the unscoped answer of
    `workspace/configuration` (no folder open) or what a client without that request pushed in
    `didChangeConfiguration`; `folders`, the answer for each folder URI. `editor` is which
    editor the client is (from `initialize`), for the command names KeSi's sentences use.
    """

    init_options: Mapping[str, object] = field(default_factory=dict)
    workspace: Mapping[str, object] = field(default_factory=dict)
    folders: dict[str, Mapping[str, object]] = field(default_factory=dict)
    editor: Editor = "lsp"
    _reported: set[str] = field(default_factory=set)

    def settings_for(self, folder_uri: str | None) -> ParsedSettings:
        """The settings a run in `folder_uri` uses (None: no folder-specific layer)."""
        layers = [self.init_options, self.workspace]
        if folder_uri is not None:
            layers.append(self.folders.get(folder_uri, {}))
        return parse_settings(
            *layers, sources=("init", "user", "user"), quiet=CLIENT_KEYS, editor=self.editor
        )

    def new_problems(self, parsed: ParsedSettings) -> list[str]:
        """Problems not reported yet: the user hears about each bad value once, not per pull."""
        fresh = [p for p in parsed.problems if p not in self._reported]
        self._reported.update(fresh)
        return fresh

    def forget_reported(self) -> None:
        """After a settings change, report a still-bad value again (the user just looked)."""
        self._reported.clear()
