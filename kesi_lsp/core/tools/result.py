"""The value every tool returns: text for the model and whether it is an error."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ToolResult:
    """What goes back to the model as a `tool_result` block."""

    text: str
    is_error: bool = False
