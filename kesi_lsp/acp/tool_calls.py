"""KeSi's tools as ACP tool calls: a title, a kind, the files they touch, and which call is
which while the run goes on.

Kinds let a client pick an icon and a layout: `read` for read_file, `search` for list_files,
glob and grep, `edit` for edit_file and write_file (their cards carry a `diff`), `execute` for
run_command (always KeSi's own sandbox, never the client's terminal), `think` for the plan.
Locations are absolute paths as the client spells them, so "follow the agent" opens the file
the agent is in; a path the model gave that leaves the folder gets none (the tool refuses it
anyway).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from acp.schema import ToolCallLocation, ToolKind

from kesi_lsp.acp.sessions import AcpSession
from kesi_lsp.catalog import Locale, text

KINDS: Final[dict[str, ToolKind]] = {
    "read_file": "read",
    "list_files": "search",
    "glob": "search",
    "grep": "search",
    "edit_file": "edit",
    "write_file": "edit",
    "run_command": "execute",
    "todo": "think",
}
_PATH_KEYS: Final = ("file_path", "path")
MAX_TITLE: Final = 120


def _shown(value: object) -> str:
    said = " ".join(str(value).split())
    return said if len(said) <= MAX_TITLE else said[: MAX_TITLE - 1] + "…"


def title(name: str, tool_input: Mapping[str, object], locale: Locale) -> str:
    """What the card says the tool is doing: "Read calc.py", "Run python3 -m pytest -q"."""
    path = _shown(next((tool_input[k] for k in _PATH_KEYS if tool_input.get(k)), "."))
    match name:
        case "read_file" | "list_files" | "edit_file" | "write_file":
            return text(f"acp.tool.{name}", locale, path=path)
        case "glob":
            return text("acp.tool.glob", locale, pattern=_shown(tool_input.get("pattern", "")))
        case "grep":
            pattern = _shown(tool_input.get("pattern", ""))
            if tool_input.get("path"):
                return text("acp.tool.grep_in", locale, pattern=pattern, path=path)
            return text("acp.tool.grep", locale, pattern=pattern)
        case "run_command":
            return text("acp.tool.run_command", locale, command=_shown(tool_input.get("command")))
        case "todo":
            return text("acp.tool.todo", locale)
        case "search_agent":
            return text("acp.tool.search_agent", locale, task=_shown(tool_input.get("task", "")))
    if name.startswith("mcp__") and "__" in name[5:]:
        server, _, tool = name[5:].partition("__")
        return text("acp.tool.mcp", locale, server=server, tool=tool)
    return text("acp.tool.other", locale, tool=name)


def inside(session: AcpSession, raw: object) -> Path | None:
    """The file a tool input names, when it is a plain path inside the folder (lexically: the
    tool itself applies the fence and the ignore list)."""
    if not isinstance(raw, str) or not raw.strip() or raw.startswith("~"):
        return None
    joined = Path(os.path.normpath(session.root / raw))
    return joined if joined == session.root or joined.is_relative_to(session.root) else None


def locations(
    session: AcpSession, name: str, tool_input: Mapping[str, object]
) -> list[ToolCallLocation]:
    """The files (or folders) a tool call works in, as the client spells them."""
    if name == "run_command" or name == "todo":
        return []
    if name.startswith("mcp__") and not any(k in tool_input for k in _PATH_KEYS):
        return []
    raw = next((tool_input[k] for k in _PATH_KEYS if k in tool_input), ".")
    path = inside(session, raw)
    return [] if path is None else [ToolCallLocation(path=session.client_path(path))]


@dataclass
class Call:
    """A tool call of the current run: its ACP id, tool, input and the file it names."""

    id: str
    name: str
    input: Mapping[str, object]
    path: Path | None
    done: bool = False
    opened: bool = False  # its card was opened while its input was still arriving


@dataclass
class Calls:
    """The run's tool calls by the model's tool_use id, to match a question to its card."""

    run_id: str
    by_use: dict[str, Call] = field(default_factory=dict)

    def arriving(self, use_id: str, name: str) -> tuple[Call, bool]:
        """The card of a call whose input is still arriving, and whether it is new (its first
        report opens it; the later ones update it)."""
        call = self.by_use.get(use_id)
        if call is not None:
            return call, False
        call = Call(f"{self.run_id}-{use_id}", name, {}, None, opened=True)
        self.by_use[use_id] = call
        return call, True

    def start(
        self, session: AcpSession, use_id: str, name: str, tool_input: Mapping[str, object]
    ) -> Call:
        """The call starts with its whole input (its card may be open already: `opened`)."""
        raw = next((tool_input[k] for k in _PATH_KEYS if k in tool_input), None)
        opened = use_id in self.by_use and self.by_use[use_id].opened
        call = Call(
            f"{self.run_id}-{use_id}", name, tool_input, inside(session, raw), opened=opened
        )
        self.by_use[use_id] = call
        return call

    def finish(self, use_id: str) -> Call | None:
        call = self.by_use.get(use_id)
        if call is not None:
            call.done = True
        return call

    def open_command(self, command: str) -> Call | None:
        """The running run_command call for `command` (the gate asks about one at a time)."""
        return self._newest(lambda c: c.name == "run_command" and c.input.get("command") == command)

    def open_tool(self, name: str) -> Call | None:
        """The running call of the tool `name` (an MCP tool: one is asked about at a time)."""
        return self._newest(lambda c: c.name == name)

    def open_edit(self, path: Path) -> Call | None:
        """The running edit_file or write_file call for `path` (resolved)."""
        return self._newest(
            lambda c: KINDS.get(c.name) == "edit" and c.path is not None and _same(c.path, path)
        )

    def _newest(self, wanted: Callable[[Call], bool]) -> Call | None:
        found = [c for c in self.by_use.values() if not c.done and wanted(c)]
        return found[-1] if found else None


def _same(named: Path, resolved: Path) -> bool:
    """A lexical path from the model and a resolved one name the same file."""
    return named == resolved or named.resolve() == resolved
