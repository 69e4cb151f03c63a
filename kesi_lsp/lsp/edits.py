"""Build the `WorkspaceEdit` for one checked file change (design §2.7, step 2).

The edit is expressed as line hunks against the text the editor holds, so the editor's undo
restores exactly what changed, VS Code's Refactor Preview shows one checkbox per hunk, and a
cursor elsewhere in the file stays put. Ranges are converted into the position encoding the
client negotiated (UTF-16 unless it asked otherwise).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from lsprotocol import types
from pygls.workspace import PositionCodec
from pygls.workspace.position_codec import ServerTextPosition

from kesi_lsp.core.diff import split_lines

REVIEW_ANNOTATION: Final = "kesi.review"


@dataclass(frozen=True)
class Hunk:
    """Replace lines [start, end) of the old text by `new_text` (0-based line numbers)."""

    start: int
    end: int
    new_text: str


def hunks(before: str, after: str) -> list[Hunk]:
    """The changed line blocks between `before` and `after`, in order, not overlapping."""
    old, new = split_lines(before), split_lines(after)
    matcher = difflib.SequenceMatcher(a=old, b=new, autojunk=False)
    return [
        Hunk(i1, i2, "".join(new[j1:j2]))
        for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        if tag != "equal"
    ]


def _line_start(lines: Sequence[str], index: int, codec: PositionCodec) -> types.Position:
    """The client position of the start of old line `index` (may be one past the end)."""
    if index < len(lines):
        return types.Position(line=index, character=0)
    if not lines:
        return types.Position(line=0, character=0)
    last = lines[-1]
    if last.endswith(("\n", "\r")):
        return types.Position(line=len(lines), character=0)
    # The text does not end with a newline: "one past the end" is the end of the last line.
    return codec.position_to_client_units(
        list(lines), ServerTextPosition(line=len(lines) - 1, character=len(last))
    )


def text_edits(before: str, after: str, codec: PositionCodec) -> list[types.TextEdit]:
    """Plain TextEdits turning `before` into `after`."""
    lines = split_lines(before)
    return [
        types.TextEdit(
            range=types.Range(
                start=_line_start(lines, h.start, codec), end=_line_start(lines, h.end, codec)
            ),
            new_text=h.new_text,
        )
        for h in hunks(before, after)
    ]


def _annotate(edits: list[types.TextEdit]) -> list[types.AnnotatedTextEdit]:
    return [
        types.AnnotatedTextEdit(
            annotation_id=REVIEW_ANNOTATION, range=edit.range, new_text=edit.new_text
        )
        for edit in edits
    ]


@dataclass(frozen=True)
class EditPlan:
    """What to send: the target, the versions and whether the file must be created."""

    uri: str
    before: str  # "" for a new file
    after: str
    version: int | None  # the open document's version, None when not open
    create: bool  # send CreateFile first (only when the client supports it)
    label: str
    annotation: str | None = None  # the review description; None: no needsConfirmation


def workspace_edit(
    plan: EditPlan, codec: PositionCodec, *, document_changes: bool
) -> types.WorkspaceEdit:
    """The WorkspaceEdit for `plan`, in the shape the client announced it understands.

    Change annotations only exist inside `documentChanges`, so a client without it never gets
    one (the review then happens before the edit is sent, see `review.py`).
    """
    plain = text_edits(plan.before, plan.after, codec)
    if not document_changes:
        return types.WorkspaceEdit(changes={plan.uri: plain})
    edits: list[types.TextEdit | types.AnnotatedTextEdit | types.SnippetTextEdit] = list(plain)
    annotations = None
    if plan.annotation is not None:
        edits = list(_annotate(plain))
        annotations = {
            REVIEW_ANNOTATION: types.ChangeAnnotation(
                label=plan.label, needs_confirmation=True, description=plan.annotation
            )
        }
    changes: list[
        types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile
    ] = []
    if plan.create:
        changes.append(
            types.CreateFile(
                uri=plan.uri,
                options=types.CreateFileOptions(overwrite=False, ignore_if_exists=False),
                annotation_id=REVIEW_ANNOTATION if annotations else None,
            )
        )
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=plan.uri, version=plan.version)
    changes.append(types.TextDocumentEdit(text_document=identifier, edits=edits))
    return types.WorkspaceEdit(document_changes=changes, change_annotations=annotations)
