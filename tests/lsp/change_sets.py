"""Helpers for the change-set tests over the wire: scripts, and reading what the editor shows."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types

from kesi_lsp.scripted_api import reply, tool_use
from kesi_lsp.testing import Editor
from tests.lsp.helpers import api_env

__all__ = ["api_env"]

ACCEPT = {"approvals": "acceptEdits"}
CALC = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a + b\n"
FIXED = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def calc_project(tmp_path: Path) -> tuple[Path, Path]:
    """A workspace folder whose calc.py has both sign bugs: (folder, calc.py)."""
    root = tmp_path / "project"
    root.mkdir()
    calc = root / "calc.py"
    calc.write_text(CALC)
    return root, calc


def edit(path: str, old: str, new: str) -> dict[str, Any]:
    return tool_use("edit_file", {"file_path": path, "old_string": old, "new_string": new})


def two_hunks(path: str = "calc.py") -> list[Any]:
    """Read calc.py, then fix add and sub in two edits: two hunks, lines 2 and 6."""
    return [
        reply("Reading.", tool_use("read_file", {"file_path": path})),
        reply("add subtracts.", edit(path, "return a - b", "return a + b")),
        reply(
            "sub adds.", edit(path, "sub(a, b):\n    return a + b", "sub(a, b):\n    return a - b")
        ),
        reply("Both fixed."),
    ]


def disk(path: Path) -> str | None:
    """What the disk holds at `path` now (None: no file)."""
    return path.read_text() if path.exists() else None


def rename(path: Path, to: Path) -> None:
    path.rename(to)


async def until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait for what the server sends to make `check` true (it publishes asynchronously)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting for the server")
        await asyncio.sleep(0.01)


def kesi_diagnostics(client: Editor, path: Path) -> list[types.Diagnostic]:
    return [d for d in client.lsp.diagnostics.get(client.uri(path), []) if d.source == "KeSi"]


async def lenses(client: Editor, path: Path) -> list[types.CodeLens]:
    params = types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=client.uri(path)))
    found = await client.lsp.text_document_code_lens_async(params)
    return list(found or [])


async def actions(
    client: Editor, path: Path, line: int, diagnostics: list[types.Diagnostic] | None = None
) -> list[types.CodeAction]:
    at = types.Position(line=line, character=2)
    params = types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=client.uri(path)),
        range=types.Range(start=at, end=at),
        context=types.CodeActionContext(diagnostics=diagnostics or []),
    )
    found = await client.lsp.text_document_code_action_async(params)
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


async def run_command(client: Editor, command: types.Command | None) -> Any:
    assert command is not None
    return await client.command(command.command, (command.arguments or [{}])[0])


def states(listing: dict[str, Any]) -> dict[str, list[str]]:
    """`kesi.changes` as {path: [hunk states]} over every run (newest run first)."""
    out: dict[str, list[str]] = {}
    for run in listing["runs"]:
        for file in run["files"]:
            out.setdefault(file["path"], []).extend(h["state"] for h in file["hunks"])
    return out
