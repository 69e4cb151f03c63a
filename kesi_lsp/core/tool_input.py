"""How often a tool call's streaming input is reported (`ToolInputProgress`).

The API sends a tool's input as many small `input_json_delta` chunks (a few characters each):
a 12 KB `write_file` is hundreds of them. Reporting each would flood every client, and a
short call (a read, a grep) is whole within a moment, so nothing is worth showing for it. A
call is reported once `FIRST_BYTES` have arrived, then again when what it shows changes (the
path became whole) or when its input grew by a step that grows with it (an eighth of what has
arrived, at least `STEP_BYTES`): a 12 KB write reports about a dozen times, a 1 MB one about 50.
Counting bytes rather than time keeps the reports the same on a slow and a fast machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from kesi_lsp.core.events import ToolInputProgress

FIRST_BYTES: Final = 256
STEP_BYTES: Final = 1024
_SHOWN_KEYS: Final = ("file_path", "path", "command", "task", "pattern", "query")


def _shown(tool_input: Mapping[str, object]) -> tuple[object, ...]:
    """The part of the input a progress line shows: when it changes, the line does."""
    return tuple(tool_input.get(key) for key in _SHOWN_KEYS)


@dataclass
class _Call:
    tool_use_id: str
    name: str
    received: int = 0
    next_report: int = FIRST_BYTES
    shown: tuple[object, ...] | None = None


@dataclass
class ToolInputMeter:
    """The tool calls of one streaming reply, by content block index."""

    _calls: dict[int, _Call] = field(default_factory=dict)

    def start(self, index: int, tool_use_id: str, name: str) -> None:
        """A tool_use block began at `index`."""
        self._calls[index] = _Call(tool_use_id, name)

    def delta(
        self, index: int, partial_json: str, parsed: Mapping[str, object]
    ) -> ToolInputProgress | None:
        """`partial_json` arrived for the block at `index` (`parsed`: its input so far); the
        event to report, or None when this chunk is not worth one."""
        call = self._calls.get(index)
        if call is None:
            return None
        call.received += len(partial_json.encode("utf-8"))
        if call.received < FIRST_BYTES:
            return None
        shown = _shown(parsed)
        if call.received < call.next_report and shown == call.shown:
            return None
        call.shown = shown
        call.next_report = call.received + max(STEP_BYTES, call.received // 8)
        return ToolInputProgress(call.tool_use_id, call.name, call.received, dict(parsed))
