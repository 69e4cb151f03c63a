"""Benchmark 8, part 2: typing into a real `kesi-lsp` over stdio, change sets on and off.

Two servers of the same build, each with the 10,000-line file open and a run's 20 edits landed
in it (`approvals: acceptEdits`, so they stay pending; one server has `changeSets` off). Each
keystroke is timed from its `didChange` leaving the client to the answer of a request sent
right behind it (the server handles messages in order): the server's whole handling of it.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from lsprotocol import types

from bench.common import Runs, kesi_argv, server_env
from bench.lsp_client import LspClient

Keystroke = tuple[tuple[int, int], tuple[int, int], str]


class Server:
    """One kesi-lsp with the big file open and a run's 20 edits landed in it."""

    def __init__(self, project: Path, base_url: str, *, change_sets: bool) -> None:
        self.project = project
        self.path = project / "big.py"
        self.client = LspClient(kesi_argv(), env=server_env(base_url), cwd=project)
        # Initialization options: a folder's settings may not choose `approvals`.
        self.options = {"approvals": "acceptEdits", "changeSets": change_sets}
        self.runs = Runs(self.client)
        self.samples: list[float] = []
        self.published: list[tuple[float, Any]] = []
        self.client.handlers[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = self._published
        self.uri = ""

    def _published(self, stamp: float, params: Any) -> None:
        self.published.append((stamp, params))

    @property
    def editor(self) -> Any:
        return self.client.client.editor

    async def start(self, task: str) -> None:
        await self.client.start()
        await self.client.initialize(self.project, options=self.options)
        self.uri = self.client.open(self.path)
        started = await self.client.command("kesi.ask", {"prompt": task})
        log = self.runs.log(str(started["runId"]))
        await asyncio.wait_for(log.done.wait(), 120)
        assert log.finished is not None and log.finished[1]["status"] == "done", log.finished

    async def keystroke(self, keystroke: Keystroke, *, timed: bool = True) -> None:
        (sl, sc), (el, ec), text = keystroke
        edit = types.TextEdit(
            range=types.Range(
                start=types.Position(line=sl, character=sc),
                end=types.Position(line=el, character=ec),
            ),
            new_text=text,
        )
        self.editor.buffers.change(self.editor.buffer(self.path), [edit], dirty=True)
        sent = time.monotonic()
        await self.client.request(
            "workspace/executeCommand", {"command": "kesi.cost", "arguments": [{}]}
        )
        if timed:
            self.samples.append(time.monotonic() - sent)

    async def pending_hunks_at(self, expected: dict[int, str]) -> int:
        """How many of the hunks are still pending exactly over `expected` (line -> text)."""
        listing = await self.client.command("kesi.changes", {"uri": self.uri})
        lines = self.editor.buffer(self.path).text.splitlines(keepends=True)
        right = 0
        for run in listing["runs"]:
            for file in run["files"]:
                for hunk in file["hunks"]:
                    first = hunk["range"]["start"]["line"]
                    if hunk["state"] == "pending" and lines[first] == expected.get(first):
                        right += 1
        return right

    async def marks_after_pause(self, keystroke: Keystroke, quiet: float) -> float:
        """Seconds from one more keystroke (after a pause) to the arrival of its marks."""
        await asyncio.sleep(quiet * 3)
        count = len(self.published)
        sent = time.monotonic()
        await self.keystroke(keystroke, timed=False)
        while len(self.published) == count:
            if time.monotonic() - sent > 10:
                raise RuntimeError("the marks were not published after the typing paused")
            await asyncio.sleep(0.001)
        return self.published[count][0] - sent
