"""The editor port: what a front end supplies so the core can deliver a change through it.

Every front end delivers a checked change the same way (design §2.7): is it still meant for
what the user sees, the review, apply, save, verify (`pipeline.py`). What differs is only the
transport: how the text the user sees is read, how an edit reaches the editor's buffer (LSP's
`workspace/applyEdit`, ACP's `fs/write_text_file`, or the disk itself), how the editor is asked
to save. A front end implements `EditorPort` with exactly that and nothing else; the rules of
the delivery -- what is stale, when the disk may be written, what counts as landed, what the
model is told -- live once, in the pipeline.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kesi_lsp.core.workspace import Delivery, FileChange


class Route(enum.Enum):
    """How the user reviews a change."""

    ASK = "ask"  # through the approver (a prompt, our clients' review) before it is applied
    PREVIEW = "preview"  # the editor's own preview, which is part of applying it


class Drift(enum.Enum):
    """An open buffer whose file moved on disk since the editor loaded it."""

    OUTDATED = "outdated"  # clean, still showing the older text: saving would undo the move
    CONFLICTED = "conflicted"  # it holds unsaved changes too: saving would lose one or the other


@dataclass(frozen=True)
class Shown:
    """What the user sees of a file at one moment. `text` None: no such file. `in_editor`:
    it came from an editor's buffer (not the disk), so it can differ from the disk."""

    text: str | None
    in_editor: bool = False


@dataclass(frozen=True)
class Landed:
    """The change reached the editor's buffer (or the disk, when nothing else could take it).

    `kept`: after the editor's preview, the text the user kept when they ticked only part of
    the change (None: all of it). `written`: applying it was the editor's own write of the
    file, which may save it, and may reshape it on the way (ACP's `fs/write_text_file`)."""

    kept: str | None = None
    written: bool = False


class Saved(enum.Enum):
    """How the change reached the disk (or did not)."""

    ALREADY = "already"  # the disk held it already (the server wrote it, or the editor saved)
    BY_EDITOR = "editor"  # the editor saved it, and may have reformatted it
    BY_SERVER = "server"  # the server wrote the same bytes itself (the core's atomic write)
    NOT_SAVED = "not saved"  # the disk moved meanwhile, or the editor could not save
    IN_BUFFER = "in buffer"  # left unsaved on purpose: the buffer holds the user's own typing


class EditorPort(Protocol):
    """One front end's transport to its editor, for the delivery pipeline.

    Every method reads again instead of trusting a flag: an await separates each step from the
    one before, and the user may type meanwhile.
    """

    async def shown(self, path: Path) -> Shown:
        """What the user sees of `path` now: the editor's text when it has one, else the disk."""
        ...

    async def disk(self, path: Path) -> str | None:
        """What the disk holds for `path` now (None: no file, or unreadable)."""
        ...

    def drift(self, path: Path) -> Drift | None:
        """Whether the open buffer of `path` moved away from its disk (None: it did not)."""
        ...

    def route(self, change: FileChange) -> Route:
        """How the user reviews `change` when it needs review."""
        ...

    def reviewing(self, change: FileChange) -> None:
        """The change is about to be shown or delivered (a front end may show it as it goes)."""
        ...

    async def apply(self, change: FileChange, *, preview: bool) -> Landed | Delivery:
        """Put `change` in the editor's buffer (`preview`: the editor's own preview is the
        review); a `Delivery` when it ended there (refused, failed, left unticked)."""
        ...

    async def save(self, change: FileChange) -> Saved | None:
        """Ask the editor to save the buffer holding `change.after`; None: it cannot (or did
        not), and the server should write the bytes itself."""
        ...

    async def write(self, change: FileChange) -> str | None:
        """The server's own atomic write of `change` (only over `change.before`); None when it
        landed, else why not."""
        ...

    def same(self, a: str | None, b: str | None) -> bool:
        """Whether two texts count as one for this editor (e.g. but for CRLF line ends)."""
        ...

    def stale(self, change: FileChange, now: str | None, *, reviewed: bool) -> str:
        """What the model is told when the text moved away from `change.before` (`now`),
        before or (`reviewed`) during the review."""
        ...

    def landed(self, change: FileChange, text: str) -> None:
        """Report: `change` landed, as `text`."""
        ...
