"""The test suite's editors: KeSi's scripted `Editor` on pytest-lsp's `LanguageClient`.

The behaviour (buffers, `workspace/applyEdit` with each editor's quirks, scripted answers,
saves, the timeline, capability violations) is `kesi_lsp.testing.Editor`, the same the demo
plays. This module adds what only a test wants: the recorded capabilities of VS Code, Neovim
and Emacs that pytest-lsp ships (plus a Helix-like preset and our own thin clients), and
pytest-lsp's client, whose specification checks turn a message the editor did not announce
support for into a failure (`filterwarnings = error::pytest_lsp.LspSpecificationWarning`).

`kesi_client(...)` starts a server (see tests/lsp/servers.py: in this process by default, or
as a `kesi-lsp` subprocess), initializes it as the preset's editor and yields the `Editor`;
the raw LSP client is its `lsp`. The test fails if the editor saw a violation or the client a
problem.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import functools
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import attrs
from lsprotocol import types
from pytest_lsp import LanguageClient
from pytest_lsp import client_capabilities as _read_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES

from kesi_lsp.testing import (
    ALLOW_ONCE,
    ALLOW_SESSION,
    DENY,
    HELIX,
    KESI_FULL,
    Editor,
    EditorRefusalError,
    Preset,
    client_converter,
    connected,
    with_kesi,
)
from kesi_lsp.testing.generic import LSP_MODE, VIM_LSP, YEGAPPAN
from kesi_lsp.testing.presets import helix_capabilities
from tests.lsp.servers import ServerChoice, server_for

__all__ = [
    "ALLOW_ONCE",
    "ALLOW_SESSION",
    "DENY",
    "EDITOR_PRESETS",
    "PRESETS",
    "Editor",
    "EditorRefusalError",
    "KesiClient",
    "client_capabilities",
    "kesi_client",
    "new_editor",
]


@functools.cache
def _recorded(name: str) -> types.ClientCapabilities:
    return _read_capabilities(name)


def client_capabilities(name: str) -> types.ClientCapabilities:
    """pytest-lsp's recorded capabilities of the editor `name`, read once per process (each
    read builds a converter of its own: ~0.1 s of cattrs writing code), copied for each
    caller so that what one test changes in them stays its own."""
    return copy.deepcopy(_recorded(name))


def _annotations_without_create() -> types.ClientCapabilities:
    """VS Code's capabilities minus resource operations: change annotations (so the review
    is the annotated preview) but no way to create a file through workspace/applyEdit."""
    caps = client_capabilities("visual-studio-code")
    assert caps.workspace is not None and caps.workspace.workspace_edit is not None
    edit = attrs.evolve(caps.workspace.workspace_edit, resource_operations=[])
    return attrs.evolve(caps, workspace=attrs.evolve(caps.workspace, workspace_edit=edit))


def _knows_kesi(caps: types.ClientCapabilities) -> types.ClientCapabilities:
    """`caps` announcing `experimental.kesi` with no extension in it: the editor knows
    `kesi/runFinished` (the test's word on how each run ended) and nothing else of KeSi."""
    return with_kesi(caps, {})


PRESETS: dict[str, Preset] = {
    # The recorded editors, but for `experimental.kesi: {}` (see `_knows_kesi`): every
    # fallback of the wire contract, with `kesi/runFinished` to tell the test how a run ended.
    "vscode": Preset("vscode", lambda: _knows_kesi(client_capabilities("visual-studio-code"))),
    "neovim": Preset(
        "neovim",
        lambda: _knows_kesi(client_capabilities("neovim")),
        stale_edits="skip",
        edit_model="neovim",
    ),
    "emacs": Preset(
        "emacs", lambda: _knows_kesi(client_capabilities("emacs")), stale_edits="error"
    ),
    "helix": dataclasses.replace(HELIX, capabilities=lambda: _knows_kesi(helix_capabilities())),
    # Generic clients exactly as they announce themselves: no `experimental.kesi` at all
    # (kesi_lsp/testing/generic.py; plain Neovim 0.11 and eglot as pytest-lsp recorded them).
    "lsp-mode": LSP_MODE,
    "yegappan": YEGAPPAN,
    "vim-lsp": VIM_LSP,
    "neovim-plain": Preset(
        "neovim-plain",
        lambda: client_capabilities("neovim"),
        stale_edits="skip",
        edit_model="neovim",
    ),
    "eglot": Preset("eglot", lambda: client_capabilities("emacs"), stale_edits="error"),
    # Helix as it announces itself (the "helix" above adds `experimental.kesi: {}`).
    "helix-plain": HELIX,
    # Our own thin clients: the editor plus the `experimental.kesi` extensions.
    "vscode+kesi": Preset(
        "vscode+kesi",
        lambda: with_kesi(
            client_capabilities("visual-studio-code"),
            {
                "stream": True,
                "saveDocuments": True,
                "plan": True,
                "diagnostics": True,
                "hunks": True,
            },
        ),
    ),
    "neovim+kesi": Preset(
        "neovim+kesi",
        lambda: with_kesi(client_capabilities("neovim"), KESI_FULL),
        stale_edits="skip",
        edit_model="neovim",
    ),
    # A made-up editor: the annotated preview, but no CreateFile (see _apply's fallback).
    "annotations-no-create": Preset(
        "annotations-no-create", lambda: _knows_kesi(_annotations_without_create())
    ),
}
EDITOR_PRESETS = ("vscode", "neovim", "emacs", "helix")
GENERIC_PRESETS = ("lsp-mode", "yegappan", "vim-lsp", "neovim-plain", "eglot", "helix-plain")
CANNOT_ASK = ("vim-lsp", "helix-plain")
"""Generic clients whose prompts never reach the user (vim-lsp answers null, Helix has none):
the README's way to work with them is `approvals: "acceptEdits"`."""


class KesiClient(LanguageClient):
    """pytest-lsp's client carrying an `Editor` that imitates `preset` (its `editor`)."""

    def __init__(self, preset: Preset, configuration: dict[str, Any] | None = None) -> None:
        super().__init__(configuration=configuration, converter_factory=client_converter)
        self.editor = Editor(preset, self, DEFAULT_CLIENT_FEATURES)

    def report_server_error(self, error: Exception, source: Any) -> None:
        self.editor.server_error(error, source)
        super().report_server_error(error, source)


def new_editor(preset: str, configuration: dict[str, Any] | None = None) -> Editor:
    """An editor imitating `preset` on a fresh pytest-lsp client, not connected yet."""
    return KesiClient(PRESETS[preset], configuration=configuration).editor


@contextlib.asynccontextmanager
async def kesi_client(
    preset: str,
    folders: Sequence[Path],
    *,
    env: dict[str, str] | None = None,
    server: ServerChoice = None,
    init_options: Any = None,
    configuration: dict[str, Any] | None = None,
    check: bool = True,
) -> AsyncIterator[Editor]:
    """Start a server (`server`: see `servers.server_for`; the real agent in this process by
    default), initialize it as `preset` with `folders`, and shut it down after."""
    editor = new_editor(preset, configuration)
    client = editor.lsp
    assert isinstance(client, KesiClient)
    async with connected(client, server_for(server, env)) as connection:
        await editor.initialize(folders, options=init_options, name=f"kesi-test-{preset}")
        yield editor
        if connection.running:
            await asyncio.wait_for(client.shutdown_session(), 30)
    if check:
        assert not editor.violations, editor.violations
        assert not editor.problems, editor.problems
