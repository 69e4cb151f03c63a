"""What an editor checks in a `WorkspaceEdit` before it applies it.

A server may only send what the client announced (LSP 3.17, `WorkspaceEditClientCapabilities`):
`documentChanges` only to a client with `documentChanges`, a `CreateFile` only to one that
lists `create` among its resource operations, an `AnnotatedTextEdit` only to one with
`changeAnnotationSupport`. A real editor would fail on anything else in its own way; the
scripted editor records each such message as a violation, and the test fails on it.
"""

from __future__ import annotations

import attrs
from lsprotocol import types


def edit_capabilities(
    caps: types.ClientCapabilities | None,
) -> types.WorkspaceEditClientCapabilities:
    """The `workspace.workspaceEdit` part of `caps` (empty when not announced)."""
    workspace = caps.workspace if caps else None
    edit = workspace.workspace_edit if workspace else None
    return edit or types.WorkspaceEditClientCapabilities()


def shape_violations(
    caps: types.WorkspaceEditClientCapabilities, edit: types.WorkspaceEdit
) -> list[str]:
    """Each part of `edit` the client did not announce support for."""
    found: list[str] = []
    resource_ops = caps.resource_operations or []
    if edit.document_changes is not None and not (caps.document_changes or resource_ops):
        found.append("documentChanges sent to a client without documentChanges")
    for change in edit.document_changes or []:
        if (
            isinstance(change, types.CreateFile)
            and types.ResourceOperationKind.Create not in resource_ops
        ):
            found.append("CreateFile sent to a client without create support")
        if (
            isinstance(change, types.DeleteFile)
            and types.ResourceOperationKind.Delete not in resource_ops
        ):
            found.append("DeleteFile sent to a client without delete support")
        if isinstance(change, types.TextDocumentEdit):
            annotated = any(isinstance(e, types.AnnotatedTextEdit) for e in change.edits)
            if annotated and caps.change_annotation_support is None:
                found.append("AnnotatedTextEdit sent without changeAnnotationSupport")
    return found


def needs_preview(caps: types.WorkspaceEditClientCapabilities, edit: types.WorkspaceEdit) -> bool:
    """Whether the editor shows `edit` for confirmation before applying it: only when it
    announced change annotations and one of them asks for confirmation. (Neovim 0.11
    announces none and applies annotated edits without asking.)"""
    if caps.change_annotation_support is None:
        return False
    return any(a.needs_confirmation for a in (edit.change_annotations or {}).values())


def ticked(edit: types.WorkspaceEdit, ids: set[str]) -> types.WorkspaceEdit:
    """`edit` with only the annotated changes whose ids are in `ids`: what VS Code's Refactor
    Preview applies when the user ticked only those."""
    kept: list[types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile] = []
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            chosen = [e for e in change.edits if getattr(e, "annotation_id", None) in ids]
            if chosen:
                kept.append(attrs.evolve(change, edits=chosen))
        elif getattr(change, "annotation_id", None) in ids:
            kept.append(change)
    return attrs.evolve(edit, document_changes=kept)
