"""Pending hunks as the editor shows them: diagnostics and code lenses (design §2.9).

Pure functions from hunks to LSP values. Every pending hunk is an `Information` diagnostic with
source `KeSi` (so every client, Helix and eglot included, shows where KeSi changed the file) and
carries two lenses, "KeSi: Keep" and "KeSi: Undo"; the first pending hunk of a file also gets
"Keep all" and "Undo all" for the whole file. The lenses' commands are the `kesi.keep` and
`kesi.undo` of §2.9 with the hunk's id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from lsprotocol import types
from pygls.workspace import PositionCodec

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core import FileChanges, Hunk

SOURCE: Final = "KeSi"
PENDING_CODE: Final = "kesi.pending"
KEEP: Final = "kesi.keep"
UNDO: Final = "kesi.undo"


def hunk_range(hunk: Hunk, codec: PositionCodec, lines: Sequence[str] | None = None) -> types.Range:
    """The lines a hunk covers, from the start of its first to the end of its last (a point
    where it removed lines). Without `lines`, the hunk's own lines say where its last one ends
    (they are the text there, for a settled pending hunk), so no buffer needs splitting."""
    start = types.Position(line=hunk.start, character=0)
    if hunk.span == 0:
        return types.Range(start=start, end=start)
    last = hunk.end - 1
    if lines is not None:
        last = min(hunk.end, len(lines)) - 1
        content = lines[last].rstrip("\r\n") if last >= 0 else ""
    else:
        shown = hunk.shown
        content = shown[-1].rstrip("\r\n") if len(shown) == hunk.span else ""
    end = types.Position(line=max(last, hunk.start), character=codec.client_num_units(content))
    return types.Range(start=start, end=end)


def pending(files: Sequence[FileChanges]) -> list[tuple[FileChanges, Hunk]]:
    """The pending hunks of one path, across runs, top to bottom."""
    found = [(f, h) for f in files if not f.gone for h in f.hunks if h.state == "pending"]
    return sorted(found, key=lambda item: item[1].start)


def diagnostic(
    file: FileChanges, hunk: Hunk, codec: PositionCodec, locale: Locale
) -> types.Diagnostic:
    message = text("changes.diagnostic", locale, removed=hunk.removed, added=hunk.added)
    return types.Diagnostic(
        range=hunk_range(hunk, codec),
        message=message,
        severity=types.DiagnosticSeverity.Information,
        source=SOURCE,
        code=PENDING_CODE,
        data={"hunkId": hunk.id, "runId": file.run_id},
    )


def diagnostics(
    files: Sequence[FileChanges], codec: PositionCodec, locale: Locale
) -> list[types.Diagnostic]:
    """The settled pending hunks of one path as diagnostics (their ranges from their lines)."""
    return [diagnostic(f, h, codec, locale) for f, h in pending(files)]


def lenses(uri: str, files: Sequence[FileChanges], locale: Locale) -> list[types.CodeLens]:
    """Keep / Undo over each pending hunk; Keep all / Undo all on the first one too."""
    out: list[types.CodeLens] = []
    for index, (_, hunk) in enumerate(pending(files)):
        line = max(hunk.start - (1 if hunk.span == 0 and hunk.start > 0 else 0), 0)
        at = types.Range(
            start=types.Position(line=line, character=0),
            end=types.Position(line=line, character=0),
        )
        one = {"uri": uri, "hunkId": hunk.id}
        out.append(_lens(at, text("changes.lens.keep", locale), KEEP, one))
        out.append(_lens(at, text("changes.lens.undo", locale), UNDO, one))
        if index == 0:
            out.append(_lens(at, text("changes.lens.keep_all", locale), KEEP, {"uri": uri}))
            out.append(_lens(at, text("changes.lens.undo_all", locale), UNDO, {"uri": uri}))
    return out


def _lens(at: types.Range, title: str, command: str, argument: dict[str, str]) -> types.CodeLens:
    return types.CodeLens(
        range=at, command=types.Command(title=title, command=command, arguments=[argument])
    )


def hunk_at(
    files: Sequence[FileChanges], first_line: int, last_line: int
) -> tuple[FileChanges, Hunk] | None:
    """The pending hunk that the lines [first_line, last_line] fall inside (code actions)."""
    for file, hunk in pending(files):
        top, bottom = hunk.start, max(hunk.start, hunk.end - 1)
        if top <= first_line and last_line <= bottom:
            return file, hunk
    return None
