"""What the connected client can do, read once from its `initialize` capabilities.

Every fallback of the wire contract (design §2.2) hangs on one of these flags, so they are
computed in one place and named for what KeSi does with them, not for where they hide in the
LSP capability tree. The client's name never decides what KeSi does: capabilities do. It only
decides how KeSi's sentences name the editor's own commands (`editor_of`).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from lsprotocol import types

from kesi_lsp.catalog import Editor


class ReviewRoute(enum.StrEnum):
    """How an edit is shown to the user before it lands (design §2.7, step 1)."""

    CLIENT = "kesi"  # our own clients: a `kesi/reviewEdit` request, answered with a decision
    PREVIEW = "annotation"  # the editor's own preview (`needsConfirmation` on workspace/applyEdit)
    PROMPT = "prompt"  # everyone else: `window/showMessageRequest` with the diff


@dataclass(frozen=True)
class ClientFeatures:
    """The client abilities KeSi's fallbacks depend on. `kesi`: the client announced
    `experimental.kesi` at all, so it knows KeSi's own notifications (`kesi/runFinished`);
    a generic client (lsp-mode, vim-lsp) gets none of them: lsp-mode shows a *Warnings*
    window for every notification it does not know. Our clients also have KeSi's commands
    ("KeSi: Ask" for a bare cursor, so their lightbulb needs no "fix this" there).
    `hunks`: the client shows pending hunks itself (VS Code draws them in the editor), so it
    gets `kesi/hunks` instead of their diagnostics, which it would list as Problems."""

    kesi: bool = False
    stream: bool = False
    review_edit: bool = False
    save_documents: bool = False
    plan: bool = False
    diagnostics: bool = False
    hunks: bool = False
    apply_edit: bool = False
    document_changes: bool = False
    create_files: bool = False
    delete_files: bool = False
    change_annotations: bool = False
    code_lens_refresh: bool = False
    work_done_progress: bool = False
    configuration: bool = False
    show_document: bool = False

    @property
    def review_route(self) -> ReviewRoute:
        """How this client shows an edit before it lands (the capability decides, not the
        client's name: Neovim applies an annotated edit without asking)."""
        if self.review_edit:
            return ReviewRoute.CLIENT
        if self.change_annotations and self.document_changes:
            return ReviewRoute.PREVIEW
        return ReviewRoute.PROMPT


def _kesi_experimental(caps: types.ClientCapabilities) -> Mapping[str, object] | None:
    experimental = caps.experimental
    if isinstance(experimental, Mapping):
        kesi = experimental.get("kesi")
        if isinstance(kesi, Mapping):
            return kesi
    return None


def client_features(caps: types.ClientCapabilities) -> ClientFeatures:
    """Distil `caps` into the flags KeSi uses."""
    announced = _kesi_experimental(caps)
    kesi = announced if announced is not None else {}
    workspace = caps.workspace
    edit = workspace.workspace_edit if workspace else None
    resource_ops = (edit.resource_operations or []) if edit else []
    window = caps.window
    return ClientFeatures(
        kesi=announced is not None,
        stream=kesi.get("stream") is True,
        review_edit=kesi.get("reviewEdit") is True,
        save_documents=kesi.get("saveDocuments") is True,
        plan=kesi.get("plan") is True,
        diagnostics=kesi.get("diagnostics") is True,
        hunks=kesi.get("hunks") is True,
        apply_edit=bool(workspace and workspace.apply_edit),
        # Neovim handles documentChanges without announcing it; announcing resource
        # operations implies it (they only exist inside documentChanges).
        document_changes=bool(edit and (edit.document_changes or resource_ops)),
        create_files=types.ResourceOperationKind.Create in resource_ops,
        delete_files=types.ResourceOperationKind.Delete in resource_ops,
        change_annotations=bool(edit and edit.change_annotation_support is not None),
        code_lens_refresh=bool(
            workspace and workspace.code_lens and workspace.code_lens.refresh_support
        ),
        work_done_progress=bool(window and window.work_done_progress),
        configuration=bool(workspace and workspace.configuration),
        show_document=bool(window and window.show_document and window.show_document.support),
    )


_EDITORS: Final[tuple[tuple[str, Editor], ...]] = (
    ("neovim", "nvim"),
    ("nvim", "nvim"),
    ("eglot", "emacs"),
    ("emacs", "emacs"),
    ("helix", "helix"),
    ("code", "vscode"),  # "Visual Studio Code", "Code - OSS", "VSCodium", and their insiders
    ("cursor", "vscode"),
    ("windsurf", "vscode"),
)


def editor_of(info: types.ClientInfo | None) -> Editor:
    """Which editor `initialize`'s `clientInfo` names (vscode-languageclient sends VS Code's
    app name, Neovim "Neovim", eglot "Eglot", Helix "helix"): only the words KeSi uses for the
    editor's own commands depend on it, never what KeSi does."""
    name = info.name.lower() if info is not None else ""
    return next((editor for part, editor in _EDITORS if part in name), "lsp")
