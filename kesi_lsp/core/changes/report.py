"""What a keep or undo says to the user: what it did, what was already so, what it left alone.

One sentence per kind, every hunk named by file and lines ("calc.py lines 2–3"), so a second
click from another window reads "Nothing to do: … already undone" instead of failing, and a
hunk the user typed over is named with the reason it stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.changes.actions import Outcome
from kesi_lsp.core.changes.hunks import Hunk
from kesi_lsp.core.changes.notes import where

MAX_ITEMS: Final = 5

Action = Literal["keep", "undo"]


def item(rel: str, hunk: Hunk | None, locale: Locale) -> str:
    """ "calc.py lines 2–3", or the file alone for a whole file."""
    if hunk is None:
        return rel
    return text("changes.item", locale, path=rel, where=where(hunk, locale))


def items(named: Sequence[tuple[str, Hunk | None]], locale: Locale) -> str:
    shown = [item(rel, hunk, locale) for rel, hunk in named[:MAX_ITEMS]]
    if len(named) > MAX_ITEMS:
        shown.append(text("changes.more_items", locale, count=len(named) - MAX_ITEMS))
    return ", ".join(shown) if locale != "zh-TW" else "、".join(shown)


def outcome_lines(action: Action, outcome: Outcome, locale: Locale) -> list[str]:
    """The sentences for `outcome`: done, already, then each hunk left alone."""
    lines: list[str] = []
    if outcome.done:
        key = "changes.done.kept" if action == "keep" else "changes.done.undone"
        lines.append(text(key, locale, items=items(outcome.done, locale)))
    if outcome.already:
        key = "changes.already.kept" if action == "keep" else "changes.already.undone"
        already: list[tuple[str, Hunk | None]] = list(outcome.already)
        lines.append(text(key, locale, items=items(already, locale)))
    for skip in outcome.skipped:
        lines.append(text(skip.key, locale, item=item(skip.rel, skip.hunk, locale)))
    return lines or [text("changes.nothing", locale)]
