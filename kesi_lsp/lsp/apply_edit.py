"""The one send-and-settle of `workspace/applyEdit`: for an agent's edit (§2.7) and an undo (§2.9).

Sending: the editor answers `applied`, refuses with a reason, or the request fails (the client
is gone, or answers an error: Eglot answers the user's "n" to its own "Server wants to edit …
Proceed?" with one). `send_edit` says which, as a value, never raising.

Settling: whatever the editor answered, its buffers are what count (Neovim answers `applied:
true` for an edit it skipped as stale), and they reach the server later, as `didChange` /
`didOpen` / `didClose`. `settle` waits, per file, until the buffer shows what was sent, or has
settled on something else: a buffer whose version moved past the one the edit was for, into
other text, is judged once it has stayed as it is for `QUIET_SECONDS` (editors send an applied
edit in one go, so that is the user's answer -- part of it ticked in a preview -- or their
typing, and waiting out the whole `SETTLE_SECONDS` would only keep them waiting). A buffer
still holding the old text gets the whole time (Emacs opens a file, then sends its change when
idle); a file that was not open gets `APPEAR_SECONDS` to show up, then the whole time.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from kesi_lsp.lsp.documents import Documents
from kesi_lsp.lsp.link import EditorLink
from kesi_lsp.lsp.wire import ClientGoneError

SETTLE_SECONDS: Final = 2.0  # how long an applied edit may take to show up as didChange
APPEAR_SECONDS: Final = 0.2  # how long a file the edit opened may take to show up as didOpen
QUIET_SECONDS: Final = 0.3  # after the editor's change, how long the buffer must stay as it is
_POLL: Final = 0.02


@dataclass(frozen=True)
class EditAnswer:
    """What the editor said. `applied`: it took the edit. Else `reason` is its own failure
    reason (None: it gave none), or `error` says why the request itself failed;
    `declined`: that failure was an error answer (Eglot's way of saying the user's no)."""

    applied: bool
    reason: str | None = None
    error: str | None = None
    declined: bool = False


async def send_edit(link: EditorLink, edit: types.WorkspaceEdit, label: str) -> EditAnswer:
    """`workspace/applyEdit` with `label`; see the module docstring."""
    params = types.ApplyWorkspaceEditParams(edit=edit, label=label)
    try:
        result = await link.wire.request(types.WORKSPACE_APPLY_EDIT, params)
    except (ClientGoneError, JsonRpcException) as exc:
        return EditAnswer(False, error=str(exc), declined=isinstance(exc, JsonRpcException))
    if getattr(result, "applied", False):
        return EditAnswer(True)
    return EditAnswer(False, reason=getattr(result, "failure_reason", None) or None)


@dataclass(frozen=True)
class Expected:
    """What one file's buffer should show once the edit lands: `after` (None: the file is
    deleted, so no buffer), instead of `before`; `version`: the version the edit was for."""

    path: Path
    before: str | None
    after: str | None
    version: int | None


class _Watch:
    """One file's wait: its deadline, and the version that moved (and since when)."""

    def __init__(self, documents: Documents, expected: Expected, now: float) -> None:
        self.documents = documents
        self.expected = expected
        self.was_open = documents.open_document(expected.path) is not None
        deleting = expected.after is None
        wait = SETTLE_SECONDS if self.was_open or deleting else APPEAR_SECONDS
        self.deadline = now + wait
        self.seen: tuple[int | None, float] | None = None

    def done(self, now: float) -> bool:
        """Whether the buffer shows the edit, or has settled on other text, or the time ran
        out."""
        expected = self.expected
        doc = self.documents.open_document(expected.path)
        if expected.after is None:
            return doc is None or now >= self.deadline
        if doc is not None and doc.source == expected.after:
            return True
        if doc is not None and not self.was_open:  # just opened: give didChange its time
            self.was_open, self.deadline = True, now + SETTLE_SECONDS
        moved = doc is not None and doc.version != expected.version
        if moved and doc is not None and doc.source != (expected.before or ""):
            if self.seen is None or self.seen[0] != doc.version:
                self.seen = (doc.version, now)
            elif now - self.seen[1] >= QUIET_SECONDS:
                return True
        return now >= self.deadline


async def settle(documents: Documents, expected: Sequence[Expected]) -> None:
    """Wait for the editor's didChange/didOpen/didClose to show the edit (module docstring)."""
    now = time.monotonic()
    waiting = [_Watch(documents, item, now) for item in expected]
    while waiting:
        now = time.monotonic()
        waiting = [watch for watch in waiting if not watch.done(now)]
        if waiting:
            await asyncio.sleep(_POLL)
