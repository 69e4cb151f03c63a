"""The value every tool returns: text for the model and whether it is an error."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ToolResult:
    """What goes back to the model as a `tool_result` block.

    `summary`, when set, is the output panel's one line for this result, for tools whose text
    does not summarise itself (a part of a file, a command's output followed by the editor's
    new problems); otherwise the loop derives it from the text.
    """

    text: str
    is_error: bool = False
    summary: str | None = None
