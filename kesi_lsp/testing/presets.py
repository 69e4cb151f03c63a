"""The editors a scripted editor can imitate: what each announces, and how it treats edits.

A preset is two things. Its capabilities are what the editor sends in `initialize`, which is
all the server may rely on. Its quirks are what the editor does where the specification lets
it choose, and where KeSi's contract depends on the choice: whether it can answer
`window/showMessageRequest` (Helix cannot), what it does with an edit for an older version of
a buffer (VS Code rejects it, Neovim skips it and still answers `applied: true`, Emacs answers
with an error), and how it holds text (`kesi_lsp.testing.vim` for Neovim).

The presets here need nothing but lsprotocol. The test suite adds the recorded capabilities of
VS Code, Neovim and Emacs that pytest-lsp ships (tests/lsp/clients.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import attrs
import cattrs
from lsprotocol import types
from lsprotocol.converters import get_converter

from kesi_lsp.testing.text import apply_text_edits
from kesi_lsp.testing.vim import VimBuffer, neovim_apply

StaleEdits = Literal["reject", "skip", "error"]
EditModel = Literal["spec", "neovim"]
ProgressCreate = Literal["answer", "lose"]

KESI_FULL: Mapping[str, bool] = {
    "stream": True,
    "reviewEdit": True,
    "saveDocuments": True,
    "plan": True,
    "diagnostics": True,
}
"""Every `experimental.kesi` extension, as KeSi's own Neovim plugin announces them."""


@functools.cache
def lsp_types() -> cattrs.Converter:
    """lsprotocol's own converter, one per process: cattrs writes each type's code once per
    converter, and the suite builds capabilities for thousands of editors."""
    return get_converter()


@dataclass(frozen=True)
class Preset:
    """An editor to imitate: what it announces and how it treats edits and prompts."""

    name: str
    capabilities: Callable[[], types.ClientCapabilities]
    prompts: bool = True  # implements window/showMessageRequest
    stale_edits: StaleEdits = "reject"
    edit_model: EditModel = "spec"  # how it holds text and applies edits
    # lsp-mode now and then loses `window/workDoneProgress/create` and never answers it
    progress_create: ProgressCreate = "answer"
    # vim-lsp answers every showMessageRequest with null, whatever the user chose
    null_prompt_answers: bool = False
    # vim-lsp edits a buffer that is in no window (or loads one for a file not open) and
    # sends no didChange for it, yet answers `applied: true`
    silent_hidden_edits: bool = False

    def apply_edits(self, text: str, edits: Sequence[Any], encoding: str) -> str:
        """`text` after `edits`, as this editor applies them."""
        if self.edit_model == "neovim":
            return neovim_apply(text, edits, encoding)
        return apply_text_edits(text, edits, encoding)

    def read(self, data: str) -> str:
        """The text this editor holds after opening a file that contains `data`."""
        if self.edit_model == "neovim":  # an empty file is one empty line: "\n"
            return VimBuffer.read(data).text()
        return data

    def written(self, text: str) -> str:
        """What saving a buffer that holds `text` writes to the disk."""
        if self.edit_model == "neovim":  # :write ('fixeol')
            return VimBuffer.of(text).disk()
        return text


def with_kesi(
    caps: types.ClientCapabilities, flags: Mapping[str, bool]
) -> types.ClientCapabilities:
    """`caps` plus KeSi's own extensions (`experimental.kesi`), as its editor clients add."""
    return attrs.evolve(caps, experimental={"kesi": dict(flags)})


def kesi_editor_capabilities() -> types.ClientCapabilities:
    """An editor with every KeSi extension but `diagnostics` (it runs no other language
    server, so it claims nothing about problems): versioned document changes with file
    creation, code actions, didSave, permission prompts, UTF-16 (what `kesi-lsp demo` plays)."""
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            apply_edit=True,
            workspace_edit=types.WorkspaceEditClientCapabilities(
                document_changes=True,
                resource_operations=[types.ResourceOperationKind.Create],
            ),
            workspace_folders=True,
            execute_command=types.ExecuteCommandClientCapabilities(),
        ),
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=True),
            code_action=types.CodeActionClientCapabilities(
                code_action_literal_support=types.ClientCodeActionLiteralOptions(
                    code_action_kind=types.ClientCodeActionKindOptions(
                        value_set=["", "quickfix", "refactor", "refactor.rewrite", "source"]
                    )
                )
            ),
        ),
        window=types.WindowClientCapabilities(
            show_message=types.ShowMessageRequestClientCapabilities(
                message_action_item=types.ClientShowMessageActionItemOptions(
                    additional_properties_support=False
                )
            )
        ),
        general=types.GeneralClientCapabilities(position_encodings=["utf-16"]),
        experimental={"kesi": {k: v for k, v in KESI_FULL.items() if k != "diagnostics"}},
    )


def helix_capabilities() -> types.ClientCapabilities:
    """Roughly what Helix 25 announces: documentChanges and resource operations, utf-8
    first, work-done progress, and no way to answer `window/showMessageRequest`."""
    raw = {
        "general": {"positionEncodings": ["utf-8", "utf-32", "utf-16"]},
        "workspace": {
            "applyEdit": True,
            "configuration": True,
            "workspaceFolders": True,
            "didChangeConfiguration": {"dynamicRegistration": False},
            "executeCommand": {"dynamicRegistration": False},
            "workspaceEdit": {
                "documentChanges": True,
                "resourceOperations": ["create", "rename", "delete"],
                "failureHandling": "abort",
                "normalizesLineEndings": False,
            },
        },
        "textDocument": {
            "synchronization": {"didSave": True},
            "codeAction": {
                "codeActionLiteralSupport": {
                    "codeActionKind": {
                        "valueSet": ["", "quickfix", "refactor", "refactor.rewrite", "source"]
                    }
                },
                "isPreferredSupport": True,
                "dataSupport": True,
                "resolveSupport": {"properties": ["edit", "command"]},
            },
            "publishDiagnostics": {"versionSupport": True},
        },
        "window": {"workDoneProgress": True, "showDocument": {"support": True}},
    }
    return lsp_types().structure(raw, types.ClientCapabilities)


def bench_capabilities() -> types.ClientCapabilities:
    """A lean editor that trusts KeSi: settings, progress, prompts, streamed words and saves,
    but no review of its own (the benchmarks measure the server, not the review)."""
    raw = {
        "general": {"positionEncodings": ["utf-16"]},
        "workspace": {
            "applyEdit": True,
            "configuration": True,
            "workspaceFolders": True,
            "workspaceEdit": {"documentChanges": True},
            "didChangeConfiguration": {"dynamicRegistration": False},
            "executeCommand": {"dynamicRegistration": False},
        },
        "textDocument": {
            "synchronization": {"didSave": True},
            "codeAction": {
                "codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["", "quickfix", "refactor", "refactor.rewrite"]}
                }
            },
        },
        "window": {
            "workDoneProgress": True,
            "showMessage": {"messageActionItem": {"additionalPropertiesSupport": False}},
        },
        "experimental": {"kesi": {"stream": True, "saveDocuments": True}},
    }
    return lsp_types().structure(raw, types.ClientCapabilities)


KESI_EDITOR = Preset("kesi-editor", kesi_editor_capabilities)
HELIX = Preset("helix", helix_capabilities, prompts=False, stale_edits="reject")
BENCH = Preset("bench", bench_capabilities)
