"""The note to the model about what became of its changes (design §2.9).

Before the next request (of the same run or the next one) the model reads what the user did with
its hunks since it last asked: undone, kept, changed (with the user's text as a diff from the
model's), brought back with the editor's undo, or whole files taken back. Without it, a model
that finds its fix gone would make it again; with it, it knows the user said no.

The note is short by construction: each diff is clipped, and the whole note too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.changes.hunks import Hunk, lines_of
from kesi_lsp.core.changes.model import Transition

MAX_DIFF_LINES: Final = 12
MAX_DIFF_CHARS: Final = 1200
MAX_NOTE_CHARS: Final = 6000

_KEYS: Final = {
    "undone": "changes.note.undone",
    "kept": "changes.note.kept",
    "modified": "changes.note.modified",
    "restored": "changes.note.restored",
    "uncreated": "changes.note.uncreated",
    "undeleted": "changes.note.undeleted",
}


def where(hunk: Hunk, locale: Locale) -> str:
    """Where a hunk is now, 1-based: "lines 3–4", "line 3", "after line 3"."""
    first = hunk.start + 1
    if hunk.span == 0:
        if hunk.start == 0:
            return text("changes.where.top", locale)
        return text("changes.where.after", locale, line=hunk.start)
    if hunk.span == 1:
        return text("changes.where.line", locale, line=first)
    return text("changes.where.lines", locale, first=first, last=hunk.start + hunk.span)


def short_diff(old: Sequence[str], new: Sequence[str], locale: Locale) -> str:
    """`old` -> `new` as -/+ lines with a line of context, clipped (no headers: the note says
    which file and lines)."""
    import difflib  # ~25 ms of import the server's start-up does not need (benchmark 4)

    out: list[str] = []
    size = 0
    body = [
        line.rstrip("\r\n")
        for line in difflib.unified_diff(list(old), list(new), n=1, lineterm="")
        if not line.startswith(("---", "+++", "@@"))
    ]
    for line in body:
        if len(out) == MAX_DIFF_LINES or size + len(line) > MAX_DIFF_CHARS:
            out.append(text("changes.note.cut", locale, count=len(body) - len(out)))
            break
        out.append("    " + line)
        size += len(line) + 5
    return "\n".join(out)


def _entry(item: Transition, locale: Locale) -> str:
    key = _KEYS[item.kind]
    hunk = item.hunk
    if hunk is None:
        return text(key, locale, path=item.rel)
    said = text(key, locale, path=item.rel, where=where(hunk, locale))
    if item.kind == "undone":
        return f"{said}\n{short_diff(hunk.written, hunk.base, locale)}"
    if item.kind == "modified":
        return f"{said}\n{short_diff(hunk.written, item.now, locale)}"
    return said


def note_text(transitions: Sequence[Transition], locale: Locale) -> str | None:
    """The note for `transitions` (oldest first), or None when there is nothing to say."""
    if not transitions:
        return None
    lines = [text("changes.note.head", locale)]
    size = len(lines[0])
    for count, item in enumerate(transitions):
        entry = "- " + _entry(item, locale)
        if size + len(entry) > MAX_NOTE_CHARS:
            lines.append(text("changes.note.more", locale, count=len(transitions) - count))
            break
        lines.append(entry)
        size += len(entry) + 1
    return "\n".join(lines)


def partly_kept(rel: str, proposed: str, kept: str, locale: Locale) -> str:
    """The model's note when the user accepted only some hunks of its change: what landed,
    as a diff from its version (it must read the file again before changing it further)."""
    diff = short_diff(lines_of(proposed), lines_of(kept), locale)
    return text("changes.partial", locale, path=rel, diff=diff)
