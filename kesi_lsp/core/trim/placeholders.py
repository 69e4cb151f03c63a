"""The text that replaces a cleared tool result: what was there, and how to get it again.

A placeholder depends only on the call it replaces (never on when it was cleared), so the
history's prefix stays byte-identical from one request to the next and the prompt cache holds.
"""

from __future__ import annotations

import json
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.trim.calls import PLACEHOLDER_MARK, ToolCall
from kesi_lsp.core.trim.selection import Reason

TAIL_LINES: Final = 2
TAIL_CHARS: Final = 160
INPUT_CHARS: Final = 120


def _clip(value: str, limit: int) -> str:
    value = " ".join(value.split())
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _shown_input(call: ToolCall) -> str:
    shown = json.dumps(dict(call.input), ensure_ascii=False, sort_keys=True)
    return _clip(shown, INPUT_CHARS)


def _tail(body: str) -> str:
    lines = [line.strip() for line in body.splitlines() if line.strip()]
    return " / ".join(_clip(line, TAIL_CHARS) for line in lines[-TAIL_LINES:])


def placeholder(call: ToolCall, reason: Reason, locale: Locale) -> str:
    """The text that replaces a cleared result: what was there and how to get it again."""
    lines = len(call.result_text.splitlines())
    chars = len(call.result_text)
    if call.name == "read_file":
        path = str(call.input.get("file_path", ""))
        key = "loop.trim.read_superseded" if reason == "superseded" else "loop.trim.read"
        body = text(key, locale, path=path, lines=lines, chars=chars)
    elif call.name == "run_command":
        command = _clip(str(call.input.get("command", "")), INPUT_CHARS)
        body = text(
            "loop.trim.command", locale, command=command, lines=lines, tail=_tail(call.result_text)
        )
    else:
        body = text(
            "loop.trim.search", locale, tool=call.name, input=_shown_input(call), lines=lines
        )
    return f"{PLACEHOLDER_MARK} {body}"
