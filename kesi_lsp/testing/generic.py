"""Generic LSP clients a user already has, as KeSi meets them: what each announces, and its
quirks (round three's digest, §4: each was driven against KeSi with a scripted model).

None of them announces `experimental.kesi`, so none gets KeSi's own notifications, streams,
reviews or saves: the server's fallbacks are all they see. The capabilities are the parts of
each client's `initialize` that KeSi's fallbacks read (edits, prompts, progress, code actions).

- lsp-mode 10: documentChanges and resource operations, work-done progress (a create it now
  and then loses: `progress_create="lose"`), code actions with resolve.
- Vim 9 with yegappan/lsp: applyEdit with resource operations but no `documentChanges`
  flag, work-done progress, utf-32 first.
- Vim 9 with vim-lsp: applyEdit only, no progress; every showMessageRequest answer reaches
  the server as null (`null_prompt_answers`); it edits a buffer in no window (loading one for
  a file not open) without a didChange, and answers `applied: true` (`silent_hidden_edits`).
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from kesi_lsp.testing.presets import Preset, lsp_types

_CODE_ACTION_KINDS = [
    "",
    "quickfix",
    "refactor",
    "refactor.extract",
    "refactor.inline",
    "refactor.rewrite",
    "source",
    "source.organizeImports",
]


def _structure(raw: dict[str, Any]) -> types.ClientCapabilities:
    return lsp_types().structure(raw, types.ClientCapabilities)


def lsp_mode_capabilities() -> types.ClientCapabilities:
    """What lsp-mode 10.0 announces (`lsp--client-capabilities`), the parts KeSi reads."""
    return _structure(
        {
            "workspace": {
                "workspaceEdit": {
                    "documentChanges": True,
                    "resourceOperations": ["create", "rename", "delete"],
                },
                "applyEdit": True,
                "executeCommand": {"dynamicRegistration": False},
                "workspaceFolders": True,
                "configuration": True,
                "codeLens": {"refreshSupport": True},
            },
            "textDocument": {
                "synchronization": {"willSave": True, "didSave": True, "willSaveWaitUntil": True},
                "codeAction": {
                    "dynamicRegistration": True,
                    "isPreferredSupport": True,
                    "codeActionLiteralSupport": {
                        "codeActionKind": {"valueSet": _CODE_ACTION_KINDS}
                    },
                    "resolveSupport": {"properties": ["edit", "command"]},
                    "dataSupport": True,
                },
                "codeLens": {"dynamicRegistration": True},
                "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
            },
            "window": {"workDoneProgress": True, "showDocument": {"support": True}},
        }
    )


def yegappan_capabilities() -> types.ClientCapabilities:
    """What Vim 9's yegappan/lsp announces (`GetClientCaps`), the parts KeSi reads."""
    return _structure(
        {
            "general": {"positionEncodings": ["utf-32", "utf-16", "utf-8"]},
            "textDocument": {
                "codeAction": {
                    "dynamicRegistration": False,
                    "codeActionLiteralSupport": {
                        "codeActionKind": {"valueSet": [*_CODE_ACTION_KINDS, "source.fixAll"]}
                    },
                    "isPreferredSupport": True,
                    "disabledSupport": True,
                    "dataSupport": True,
                    "resolveSupport": {"properties": ["edit", "command"]},
                },
                "codeLens": {"dynamicRegistration": False},
                "synchronization": {"dynamicRegistration": False, "didSave": True},
                "publishDiagnostics": {"versionSupport": True},
            },
            "window": {"workDoneProgress": True},
            "workspace": {
                "workspaceFolders": True,
                "applyEdit": True,
                "workspaceEdit": {"resourceOperations": ["rename", "create", "delete"]},
                "configuration": True,
            },
        }
    )


def vim_lsp_capabilities() -> types.ClientCapabilities:
    """What Vim 9's vim-lsp announces (`lsp#default_get_supported_capabilities`), the parts
    KeSi reads: no work-done progress, no documentChanges."""
    return _structure(
        {
            "workspace": {"applyEdit": True, "configuration": True, "workspaceFolders": True},
            "textDocument": {
                "codeAction": {
                    "dynamicRegistration": False,
                    "codeActionLiteralSupport": {
                        "codeActionKind": {"valueSet": _CODE_ACTION_KINDS}
                    },
                    "isPreferredSupport": True,
                    "disabledSupport": True,
                },
                "codeLens": {"dynamicRegistration": False},
                "synchronization": {"didSave": True},
            },
        }
    )


LSP_MODE = Preset("lsp-mode", lsp_mode_capabilities, progress_create="lose")
YEGAPPAN = Preset("yegappan", yegappan_capabilities, edit_model="neovim")
VIM_LSP = Preset(
    "vim-lsp",
    vim_lsp_capabilities,
    edit_model="neovim",
    null_prompt_answers=True,
    silent_hidden_edits=True,
)
GENERIC = (LSP_MODE, YEGAPPAN, VIM_LSP)
