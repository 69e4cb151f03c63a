"""An unchanged re-read is not sent twice: the model already has that text in view.

Models re-read files they read a few turns ago ("let me check rules.py again"), and every copy
is resent with every later request. When a read_file answers exactly what the same read still
in view answered (same input, same text, not cleared by trimming, not summarised away), the
model gets a short note pointing at it instead — Claude Code's "file unchanged since last read".
Only the text sent changes: the read itself happened, so its read record is current.

The note starts with `UNCHANGED_MARK`, so trimming never takes it for a read that supersedes
the earlier one (clearing that earlier text must still drop the read record), and compaction
does not count it as a read kept in view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.tools.result import ToolResult
from kesi_lsp.core.trim.calls import UNCHANGED, ToolCall, normalized_path, tool_calls

if TYPE_CHECKING:
    from anthropic.types import MessageParam

UNCHANGED_MARK: Final = UNCHANGED


def is_pointer(call: ToolCall) -> bool:
    """Whether `call`'s result is an unchanged-read note rather than a file's text."""
    return call.result_text.startswith(UNCHANGED_MARK)


def _same_read(earlier: Mapping[str, Any], now: Mapping[str, Any]) -> bool:
    """The same read: the same file (however spelled) and the same other arguments."""
    if normalized_path(earlier.get("file_path")) != normalized_path(now.get("file_path")):
        return False
    rest = {k: v for k, v in now.items() if k != "file_path"}
    return {k: v for k, v in earlier.items() if k != "file_path"} == rest


def unchanged_read(
    history: Sequence[MessageParam],
    name: str,
    tool_input: object,
    outcome: ToolResult,
    locale: Locale,
) -> ToolResult:
    """`outcome`, or the note that replaces it when the same text is still in view."""
    if name != "read_file" or outcome.is_error or not isinstance(tool_input, Mapping):
        return outcome
    for call in reversed(tool_calls(history)):
        if call.name != "read_file" or call.result_at is None or call.is_error:
            continue
        if not _same_read(call.input, tool_input) or is_pointer(call):
            continue
        if call.cleared or call.result_text != outcome.text:
            return outcome  # out of view, or the file changed: the model needs the text
        lines = len(outcome.text.splitlines())
        path = str(tool_input.get("file_path", ""))
        note = text("loop.trim.unchanged", locale, path=path, lines=lines)
        # What the output panel says is what the model got: a note, not the file again.
        summary = text("loop.summary.unchanged", locale, lines=lines)
        return ToolResult(f"{UNCHANGED_MARK} {note}", summary=summary)
    return outcome
