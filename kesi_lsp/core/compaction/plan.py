"""Where to cut a history for compaction, and what the history looks like afterwards.

All pure. The cut always falls just before an assistant message: everything before it (which
ends with a user message, as every request does) is summarised, and the assistant message
and everything after it stay verbatim. So every `tool_use` keeps its `tool_result` on its own
side of the cut, and the summary, a user message, is followed by an assistant message as the
API's alternation wants. A history that ends with an assistant message may also be cut at its
end (nothing kept verbatim): the summary is then the last message, and the next prompt joins it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.history import text_param
from kesi_lsp.core.paths import safe_path, safe_write_path
from kesi_lsp.core.trim.calls import block_tokens, estimate_tokens, tool_calls
from kesi_lsp.core.trim.unchanged import is_pointer

if TYPE_CHECKING:
    from anthropic.types import MessageParam

MIN_SUMMARISED_TOKENS: Final = 1_500
"""Below this there is too little to summarise: a summary would cost more than it saves."""

FILE_TOOLS: Final = frozenset({"read_file", "edit_file", "write_file"})


@dataclass(frozen=True)
class Split:
    """A cut: messages before `at` are summarised, the rest kept verbatim."""

    at: int
    summarised_tokens: int
    kept_tokens: int


def message_tokens(message: MessageParam) -> int:
    """Estimated tokens of one message (the same estimate trimming uses)."""
    content = message["content"]
    if isinstance(content, str):
        return estimate_tokens(content)
    return sum(block_tokens(b) for b in content)


def choose_split(
    history: Sequence[MessageParam], keep_tokens: int, *, minimum: int = MIN_SUMMARISED_TOKENS
) -> Split | None:
    """The cut that keeps as many of the latest messages as fit in `keep_tokens` (at least
    the last assistant message and what follows it), or None when less than `minimum`
    estimated tokens would be summarised (not worth a request)."""
    sizes = [message_tokens(m) for m in history]
    cuts = [i for i in range(1, len(history)) if history[i]["role"] == "assistant"]
    if history and history[-1]["role"] == "assistant":
        cuts.append(len(history))
    if not cuts:
        return None
    kept_after = {i: sum(sizes[i:]) for i in cuts}
    fitting = [i for i in cuts if kept_after[i] <= keep_tokens]
    at = min(fitting) if fitting else max(cuts)
    summarised = sum(sizes[:at])
    if summarised < minimum:
        return None
    return Split(at=at, summarised_tokens=summarised, kept_tokens=kept_after[at])


def _touched(root: Path, raw: object) -> Path | None:
    value = str(raw or "")
    return safe_path(root, value) or safe_write_path(root, value)


def reads_to_forget(
    history: Sequence[MessageParam], at: int, reads: dict[Path, str], root: Path
) -> list[Path]:
    """Read records the model will no longer back with the file's text after the cut.

    A record stays only when the latest read, edit or write of its file is in the kept part:
    otherwise what the model saw of that file is gone into the summary, and write_file must
    ask for a fresh read (Day 10's rule, kept honest as trimming keeps it). An unchanged
    re-read's note does not count: the text it points at is the earlier read's.
    """
    latest: dict[Path, int] = {}
    for call in tool_calls(history):
        if call.name not in FILE_TOOLS or call.result_at is None or is_pointer(call):
            continue
        path = _touched(root, call.input.get("file_path"))
        if path is not None:
            latest[path] = call.result_at[0] - 1  # the assistant message that made the call
    return [path for path in reads if latest.get(path, -1) < at]


def compacted(
    history: Sequence[MessageParam], split: Split, summary: str, locale: Locale
) -> list[MessageParam]:
    """The history after the cut: one user message with the summary, then the kept part."""
    intro = text("compaction.intro", locale, messages=split.at)
    opening: MessageParam = {"role": "user", "content": [text_param(f"{intro}\n\n{summary}")]}
    kept: list[Any] = list(history[split.at :])
    return [opening, *kept]
