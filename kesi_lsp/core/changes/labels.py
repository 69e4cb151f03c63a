"""How a run and a hunk are named to the user, and what the run's verdict says now (issue 32).

A run's row reads "Fix this · shop/rates.py:8 · 20:42 · verified": what was asked (the
command's name, or the first words of the user's own request; never the task text KeSi builds
around it, nor the run's hex id), where, when it started, and the verdict as it stands now. A
hunk's row names its lines and its code, the first line it changed.

The verdict the run ended with rests on the text its check ran on. Once the user undoes any of
the run's hunks (or a file it created or deleted), the files no longer hold what was checked:
a `verified` run then reads "verified before your undo" (status `unverified`, the files now are
not verified), and reads `verified` again if the editor's redo brings the hunks back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.changes.hunks import Hunk
from kesi_lsp.core.changes.model import FileChanges
from kesi_lsp.core.changes.notes import where
from kesi_lsp.core.verification.verdict import Verdict

TITLE_MAX: Final = 48
CODE_MAX: Final = 60


@dataclass(frozen=True)
class RunAbout:
    """What a run's row says besides its verdict: `title` (what the user asked, in their words
    or the command's name), `place` ("shop/rates.py:8", None when no place was given) and when
    it `started` (local time)."""

    title: str
    place: str | None = None
    started: datetime = field(default_factory=lambda: datetime.now().astimezone())


def title_of(asked: str) -> str:
    """The first line of what the user asked, clipped to a row's width."""
    first = next((line.strip() for line in asked.splitlines() if line.strip()), "")
    return first if len(first) <= TITLE_MAX else first[: TITLE_MAX - 1] + "…"


def standing(
    verdict: Verdict | None, files: Iterable[FileChanges], locale: Locale
) -> Verdict | None:
    """A run's verdict as it stands now: its own (`verdict`), or "verified before your undo"
    once the user undid what the passing check ran on (in the run's `files`)."""
    if verdict is None or verdict.status != "verified":
        return verdict
    undone = _undone(files, locale)
    if not undone:
        return verdict
    items = text("common.list_sep", locale).join(undone)
    detail = text("verify.before_undo", locale, command=verdict.by or "", items=items)
    return Verdict("unverified", verdict.by, detail, before_undo=True)


def _undone(files: Iterable[FileChanges], locale: Locale) -> list[str]:
    named: list[str] = []
    for file in files:
        if file.taken_back:
            named.append(file.rel)
            continue
        for hunk in file.hunks:
            if hunk.state == "undone":
                named.append(text("changes.item", locale, path=file.rel, where=where(hunk, locale)))
    return named


def verdict_word(verdict: Verdict, locale: Locale) -> str:
    """`verified`, `verified before your undo`, ...: the verdict's status in words."""
    key = "before_undo" if verdict.before_undo else verdict.status
    return text(f"verify.status.{key}", locale)


def run_label(about: RunAbout | None, task: str, now: Verdict | None, locale: Locale) -> str:
    """ "Fix this · shop/rates.py:8 · 20:42 · verified": `about` the run (else the first line
    of its `task`), `now` its verdict as it stands (None: none said)."""
    about = about or RunAbout(title_of(task))
    parts = [about.title or text("story.run.untitled", locale)]
    if about.place:
        parts.append(about.place)
    parts.append(about.started.strftime("%H:%M"))
    if now is not None:
        parts.append(verdict_word(now, locale))
    return " · ".join(parts)


def hunk_label(hunk: Hunk, locale: Locale) -> str:
    """ "lines 8–9 · return round(price * rate, 2)": where the hunk is, and its code."""
    return text("story.hunk", locale, where=where(hunk, locale), code=_code(hunk, locale))


def _code(hunk: Hunk, locale: Locale) -> str:
    """The first line the hunk changed (what it wrote; what it removed, marked, when it only
    removed lines)."""
    written = _first_changed(hunk.written, hunk.base)
    if written is not None:
        return _clip(written)
    removed = _first_changed(hunk.base, ())
    if removed is not None:
        return text("story.hunk.removed", locale, code=_clip(removed))
    return text("story.hunk.blank", locale)


def _first_changed(lines: Sequence[str], other: Sequence[str]) -> str | None:
    shown = [line.strip() for line in lines]
    for at, line in enumerate(shown):
        if line and (at >= len(other) or other[at].strip() != line):
            return line
    return next((line for line in shown if line), None)


def _clip(code: str) -> str:
    return code if len(code) <= CODE_MAX else code[: CODE_MAX - 1] + "…"
