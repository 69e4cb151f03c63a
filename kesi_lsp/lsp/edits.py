"""Build the `WorkspaceEdit` for one checked file change (design §2.7, step 2).

The edit is expressed as line hunks against the text the editor holds, so the editor's undo
restores exactly what changed, VS Code's Refactor Preview shows one checkbox per hunk, and a
cursor elsewhere in the file stays put. Ranges are converted into the position encoding the
client negotiated (UTF-16 unless it asked otherwise). A hunk that reaches the end of the file
is phrased so that Neovim, whose buffer model differs from the specification's there, applies
it exactly as VS Code does (see `_tail_edit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from lsprotocol import types
from pygls.workspace import PositionCodec
from pygls.workspace.position_codec import ServerTextPosition

from kesi_lsp.catalog import DEFAULT_LOCALE, Locale, text
from kesi_lsp.core import Block, diff_blocks, split_lines

REVIEW_ANNOTATION: Final = "kesi.review"


def hunks(before: str, after: str) -> list[Block]:
    """The changed line blocks between `before` and `after`, in order, not overlapping: the
    core's one block differ, the same cut as the change sets' hunks (design §2.9)."""
    return diff_blocks(split_lines(before), split_lines(after))


def _new_text(block: Block) -> str:
    return "".join(block.lines)


def _line_start(lines: Sequence[str], index: int, codec: PositionCodec) -> types.Position:
    """The client position of the start of old line `index` (may be one past the end)."""
    if index < len(lines):
        return types.Position(line=index, character=0)
    if not lines:
        return types.Position(line=0, character=0)
    if _ending(lines[-1]):
        return types.Position(line=len(lines), character=0)
    # The text does not end with a newline: "one past the end" is the end of the last line.
    return _content_end(lines, len(lines) - 1, codec)


def _ending(line: str) -> str:
    """The line's terminator (CR LF, LF or a lone CR), or "" for a last line without one."""
    return line[len(line.rstrip("\r\n")) :]


def _content_end(lines: Sequence[str], index: int, codec: PositionCodec) -> types.Position:
    """The client position just before line `index`'s terminator."""
    content = len(lines[index]) - len(_ending(lines[index]))
    return codec.position_to_client_units(
        list(lines), ServerTextPosition(line=index, character=content)
    )


def _line_edit(lines: Sequence[str], hunk: Block, codec: PositionCodec) -> types.TextEdit:
    start, end = _line_start(lines, hunk.start, codec), _line_start(lines, hunk.end, codec)
    return types.TextEdit(range=types.Range(start=start, end=end), new_text=_new_text(hunk))


def _tail_edit(
    lines: Sequence[str], hunk: Block, previous: Block | None, codec: PositionCodec
) -> types.TextEdit | None:
    """The last hunk, when it reaches the end of the text, as an edit every client applies alike.

    A range that starts on the line after the final newline (appending to a file) is where
    editors disagree: the specification's model has an empty last line there, Neovim's has
    none, and Neovim 0.11's `apply_text_edits` then keeps the inserted text's trailing empty
    piece as an extra line. So the edit is moved left by one terminator: it ends just before
    the last line's terminator, which stays, and the replacement leaves off its own final
    terminator -- the same text, with every position inside the document for every client.

    An empty document has no terminator to keep: there the edit replaces the whole document
    up to (1, 0), the usual "whole document" range. A specification-following client clamps
    the end to the end of the text; Neovim, which holds an empty file as one empty line with
    an end-of-line, replaces exactly that line (its +1-range rule then drops the piece after
    the final newline).

    None when the moved edit would start where `previous` (an insertion) starts: clients
    order two edits with one start differently, so the caller merges the two hunks first.
    """
    new = _new_text(hunk)
    if not lines:
        whole = types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=1, character=0)
        )
        return types.TextEdit(range=whole, new_text=new)
    last = _ending(lines[-1])
    if not last:  # no final newline: the plain edit already ends inside the last line
        return _line_edit(lines, hunk, codec)
    end = _content_end(lines, len(lines) - 1, codec)
    if hunk.start < len(lines) and new.endswith(last):
        start = types.Position(line=hunk.start, character=0)
        new_text = new[: -len(last)]
    elif hunk.start > 0 and (_ending(lines[hunk.start - 1]) + new).endswith(last):
        # Start where the line before ends: take its terminator and give it back.
        above = lines[hunk.start - 1]
        shared = previous is not None and previous.end == hunk.start - 1 == previous.start
        if shared and len(above) == len(_ending(above)):  # empty: same start as `previous`
            return None
        start = _content_end(lines, hunk.start - 1, codec)
        new_text = (_ending(above) + new)[: -len(last)]
    else:  # e.g. the new text drops the final newline: only the +1 range can say that
        return _line_edit(lines, hunk, codec)
    return types.TextEdit(range=types.Range(start=start, end=end), new_text=new_text)


def text_edits(before: str, after: str, codec: PositionCodec) -> list[types.TextEdit]:
    """Plain TextEdits turning `before` into `after` (hunks in order, not overlapping)."""
    lines = split_lines(before)
    found = hunks(before, after)
    if not found or found[-1].end < len(lines):
        return [_line_edit(lines, hunk, codec) for hunk in found]
    while True:
        previous = found[-2] if len(found) > 1 else None
        tail = _tail_edit(lines, found[-1], previous, codec)
        if tail is not None:
            return [*(_line_edit(lines, hunk, codec) for hunk in found[:-1]), tail]
        assert previous is not None
        between = tuple(lines[previous.end : found[-1].start])
        merged = Block(previous.start, found[-1].end, previous.lines + between + found[-1].lines)
        found[-2:] = [merged]


def _annotate(
    edits: list[types.TextEdit], plan: EditPlan
) -> tuple[list[types.AnnotatedTextEdit], dict[str, types.ChangeAnnotation]]:
    """Each hunk its own annotation, so the editor's preview ticks them one by one (design
    §2.9): ticking one of two hunks lands only that one."""
    annotated: list[types.AnnotatedTextEdit] = []
    annotations: dict[str, types.ChangeAnnotation] = {}
    count = len(edits)
    for index, edit in enumerate(edits, 1):
        key = f"{REVIEW_ANNOTATION}.{index}"
        label = plan.label
        if count > 1:
            line = edit.range.start.line + 1
            label = text(
                "changes.review.hunk", plan.locale, label=label, index=index, count=count, line=line
            )
        annotations[key] = types.ChangeAnnotation(
            label=label, needs_confirmation=True, description=plan.annotation
        )
        annotated.append(
            types.AnnotatedTextEdit(annotation_id=key, range=edit.range, new_text=edit.new_text)
        )
    return annotated, annotations


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
    locale: Locale = DEFAULT_LOCALE


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
    annotations: dict[str, types.ChangeAnnotation] | None = None
    if plan.annotation is not None:
        annotated, annotations = _annotate(plain, plan)
        edits = list(annotated)
    changes: list[
        types.TextDocumentEdit | types.CreateFile | types.RenameFile | types.DeleteFile
    ] = []
    if plan.create:
        changes.append(
            types.CreateFile(
                uri=plan.uri,
                options=types.CreateFileOptions(overwrite=False, ignore_if_exists=False),
                annotation_id=next(iter(annotations), None) if annotations else None,
            )
        )
    identifier = types.OptionalVersionedTextDocumentIdentifier(uri=plan.uri, version=plan.version)
    changes.append(types.TextDocumentEdit(text_document=identifier, edits=edits))
    return types.WorkspaceEdit(document_changes=changes, change_annotations=annotations)
