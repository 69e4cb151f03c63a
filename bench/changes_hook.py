"""Benchmark 8, part 1: the change sets' own work per `didChange`, timed in the process.

The server is shown every text change before pygls applies it (`KesiServer.before_change`):
that call is all the bookkeeping a keystroke costs. Here it runs on the real pieces (pygls'
workspace and document, the server's `Documents`, `Sessions`, `ChangeFeed`, a session whose
change set holds 20 pending hunks in a 10,000-line file), once per keystroke of the same
typing as part 2, each call timed on its own, in the thread's CPU time: the work the call
does, not the time a busy machine took the CPU away in the middle of it (on a shared 2-core
machine a call of 50 µs is preempted often enough to decide a p99 of wall-clock time). The same
keystrokes applied by pygls (`update_text_document`, what every language server pays for
incremental sync) are timed too, for scale.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types
from pygls.workspace import Workspace

from kesi_lsp.core import AgentSettings, ChangeSets, Session
from kesi_lsp.lsp.change_feed import ChangeFeed
from kesi_lsp.lsp.documents import Documents
from kesi_lsp.lsp.folders import Folder, Sessions, path_to_uri
from kesi_lsp.lsp.link import EditorLink

Keystroke = tuple[tuple[int, int], tuple[int, int], str]


class _NoWire:
    """The feed publishes through the wire only after a pause; the benchmark never pauses."""

    closed = True

    def notify(self, method: str, params: object) -> None:
        return None

    async def request(self, method: str, params: object) -> None:
        return None


@dataclass
class HookTimes:
    hook: list[float] = field(default_factory=list)  # seconds per before_change
    pygls: list[float] = field(default_factory=list)  # seconds per update_text_document


def _change(
    keystroke: Keystroke, version: int
) -> tuple[types.VersionedTextDocumentIdentifier, types.TextDocumentContentChangePartial]:
    (sl, sc), (el, ec), text = keystroke
    rng = types.Range(
        start=types.Position(line=sl, character=sc), end=types.Position(line=el, character=ec)
    )
    return (
        types.VersionedTextDocumentIdentifier(uri="", version=version),
        types.TextDocumentContentChangePartial(range=rng, text=text),
    )


async def time_hook(
    root: Path, before: str, after: str, keystrokes: list[Keystroke], *, change_sets: bool
) -> HookTimes:
    """Time `before_change` (and pygls' own apply) for each of `keystrokes` on the file
    `root/big.py`, after an agent's edit `before` -> `after` (recorded when `change_sets`)."""
    path = root / "big.py"  # `root` is resolved
    uri = path_to_uri(path)
    workspace = Workspace(root.as_uri(), types.TextDocumentSyncKind.Incremental)
    workspace.put_text_document(
        types.TextDocumentItem(uri=uri, language_id="python", version=1, text=after)
    )
    documents = Documents(lambda: workspace)
    link = EditorLink(_NoWire(), documents)  # type: ignore[arg-type]
    sessions = Sessions()
    feed = ChangeFeed(link, sessions.all)
    sessions.on_new = feed.attach
    folder = Folder(root.as_uri(), root, root.name)
    session: Session = await sessions.open(folder, AgentSettings())
    if change_sets:
        changes: ChangeSets = session.changes
        with changes.holding(path):
            changes.record("run", "task", path, "big.py", before, after, state="pending")
    times = HookTimes()
    clock: Callable[[], float] = time.thread_time
    for version, keystroke in enumerate(keystrokes, start=2):
        identifier, change = _change(keystroke, version)
        identifier.uri = uri
        started = clock()
        feed.before_change(uri, change)
        hooked = clock()
        workspace.update_text_document(identifier, change)
        applied = clock()
        times.hook.append(hooked - started)
        times.pygls.append(applied - hooked)
        if version % 200 == 0:
            await asyncio.sleep(0)  # let the feed's timers run, as the server's loop would
    return times
