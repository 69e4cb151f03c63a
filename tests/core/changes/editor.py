"""A tiny editor for change-set tests: one buffer per path, typing reported as LSP would.

`type_at` replaces text between two (line, column) positions, updates the buffer, and tells the
change sets exactly what an incremental `didChange` says (the range in the old text and the new
text), so the tests see what the LSP adapter sees.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from kesi_lsp.core.changes.store import ChangeSets
from kesi_lsp.core.changes.tracking import TextChange
from kesi_lsp.core.diff import split_lines


def offset(text: str, line: int, col: int) -> int:
    lines = split_lines(text)
    if line >= len(lines):
        return len(text)
    return sum(len(x) for x in lines[:line]) + col


@dataclass
class Editor:
    """Buffers by path, wired to `changes` as the open documents of an editor."""

    changes: ChangeSets = field(default_factory=ChangeSets)
    buffers: dict[Path, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.changes.live_text = self.buffers.get

    def type_at(self, path: Path, start: tuple[int, int], end: tuple[int, int], text: str) -> None:
        old = self.buffers[path]
        a, b = offset(old, *start), offset(old, *end)
        self.buffers[path] = old[:a] + text + old[b:]
        self.changes.user_change(path, TextChange(start[0], start[1], end[0], end[1], text))

    def insert_line(self, path: Path, line: int, text: str) -> None:
        self.type_at(path, (line, 0), (line, 0), text)

    def delete_lines(self, path: Path, first: int, count: int) -> None:
        self.type_at(path, (first, 0), (first + count, 0), "")

    def land(
        self, path: Path, after: str, *, run: str = "r1", state: str = "pending", rel: str = ""
    ) -> None:
        """The agent's edit lands in the buffer (held, then recorded, as the tools do)."""
        before = self.buffers.get(path)
        with self.changes.holding(path):
            self.buffers[path] = after
            self.changes.record(
                run,
                f"task of {run}",
                path,
                rel or path.name,
                before,
                after,
                state=state,  # type: ignore[arg-type]
            )

    def lines(self, path: Path, start: int, count: int) -> str:
        return "".join(split_lines(self.buffers[path])[start : start + count])
