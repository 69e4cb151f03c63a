"""Applying a trim plan to a history, in place, and keeping the read records honest.

A cleared `tool_result` block keeps its place, its `tool_use_id` and its `is_error`, so the
pairing a strict Messages API checks stays valid; only its text becomes a placeholder. When the
latest successful read of a file is cleared, what the model saw of it is gone, so the file no
longer counts as read (`session.reads`): write_file must read it again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale
from kesi_lsp.core.paths import safe_path, safe_write_path
from kesi_lsp.core.trim.calls import (
    UNCHANGED,
    ToolCall,
    blocks_of,
    field_of,
    history_tokens,
    normalized_path,
    tool_calls,
)
from kesi_lsp.core.trim.placeholders import placeholder
from kesi_lsp.core.trim.selection import Cut

if TYPE_CHECKING:
    from anthropic.types import MessageParam


@dataclass(frozen=True)
class TrimReport:
    """What a trim did: the results it cleared, the read records it removed, the sizes."""

    cleared: tuple[Cut, ...] = ()
    forgotten: tuple[Path, ...] = ()
    tokens_before: int = 0
    tokens_after: int = 0


def _latest_reads(calls: Sequence[ToolCall]) -> dict[str, ToolCall]:
    """The latest read of each file that put its text in view (an unchanged re-read's note
    does not: the text it points at is the earlier read's)."""
    latest: dict[str, ToolCall] = {}
    for call in calls:
        if call.name != "read_file" or call.result_at is None or call.is_error:
            continue
        if not call.result_text.startswith(UNCHANGED):
            latest[normalized_path(call.input.get("file_path"))] = call
    return latest


def _clear(
    history: list[MessageParam], at: tuple[int, int], call: ToolCall, cut: Cut, locale: Locale
) -> None:
    """Put the placeholder in place of `call`'s result, which sits at `at`."""
    m, b = at
    blocks = blocks_of(history[m])
    blocks[b] = {
        "type": "tool_result",
        "tool_use_id": call.use_id,
        "content": placeholder(call, cut.reason, locale),
        "is_error": bool(field_of(blocks[b], "is_error")),
    }
    history[m] = {"role": "user", "content": blocks}


def _forget_read(
    call: ToolCall, latest: dict[str, ToolCall], reads: dict[Path, str], root: Path
) -> Path | None:
    """If `call` was the latest read of its file, drop the file's read record; return it."""
    raw = str(call.input.get("file_path", ""))
    newest = latest.get(normalized_path(raw))
    if newest is None or newest.use_id != call.use_id:
        return None
    path = safe_path(root, raw) or safe_write_path(root, raw)
    if path is None or reads.pop(path, None) is None:
        return None
    return path


def apply(
    history: list[MessageParam],
    reads: dict[Path, str],
    root: Path,
    cuts: Sequence[Cut],
    locale: Locale,
) -> TrimReport:
    """Clear the results `cuts` names, in place, and forget reads that are no longer in view."""
    before = history_tokens(history)
    calls = {c.use_id: c for c in tool_calls(history)}
    latest = _latest_reads(list(calls.values()))
    cleared: list[Cut] = []
    forgotten: list[Path] = []
    for cut in cuts:
        call = calls.get(cut.use_id)
        if call is None or call.result_at is None or call.cleared:
            continue
        _clear(history, call.result_at, call, cut, locale)
        cleared.append(cut)
        path = _forget_read(call, latest, reads, root) if call.name == "read_file" else None
        if path is not None:
            forgotten.append(path)
    return TrimReport(
        cleared=tuple(cleared),
        forgotten=tuple(forgotten),
        tokens_before=before,
        tokens_after=history_tokens(history) if cleared else before,
    )
