"""The workspace view seam: where file text comes from and where edits go.

In the terminal KeSi, a file was its bytes on disk. Inside an editor, the truth for an open file
is the buffer (unsaved changes included), and an edit is a proposal the user may review, accept
or reject, and then undo. The tools therefore never touch a file directly: they read through
`read_text` and hand finished, fully checked changes to `deliver`.

The default implementation for plain disk is `kesi_lsp.core.disk.DiskWorkspace`; the LSP adapter
provides one backed by the editor.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kesi_lsp.core.approval import Choice


@dataclass(frozen=True)
class FileText:
    """The current text of a file, as the user sees it.

    `version` is the editor's document version when the text came from an open buffer, else None.
    `unsaved` is True when that buffer differs from what is on disk.
    """

    text: str
    version: int | None = None
    unsaved: bool = False


@dataclass(frozen=True)
class FileChange:
    """A checked, ready-to-apply change of one file: the whole text before and after.

    `path` is resolved and inside the workspace; `rel` is its POSIX path relative to the root.
    `before` is None when the file is being created. `version` is the editor version the
    change was computed against (None for disk).
    """

    tool: str
    path: Path
    rel: str
    before: str | None
    after: str
    version: int | None = None


class DeliveryStatus(enum.Enum):
    APPLIED = "applied"
    REJECTED = "rejected"
    FAILED = "failed"


@dataclass(frozen=True)
class Delivery:
    """What became of a change.

    APPLIED: disk and the editor buffer (if the file is open) both hold `change.after` now
    (or, with a `note`, the text the editor reformatted it to on save, or the part of it the
    user kept in the editor's preview);
    `choice` says whether the user accepted once or for the session (ALLOW_ONCE when no review
    was needed). REJECTED: the user said no; nothing changed anywhere; `reason` is the refusal
    (`approval.Refused.message`). FAILED: it could not be applied (stale buffer, I/O error, the
    editor refused); `reason` says why, nothing changed.
    `reason` is the whole sentence the model receives as the tool's error result, in the
    session's locale (edit_file and write_file pass it on as it is).
    `note`, on APPLIED, is a sentence the model must hear along with its success: the editor
    reshaped the text while saving it (format on save), so disk and buffer agree on that text
    rather than on `change.after`, or the user kept only part of the change in the editor's
    preview; either way the model has to read the file again. `text`, on APPLIED, is what
    landed when it is not `change.after` (None: exactly `change.after`).
    """

    status: DeliveryStatus
    choice: Choice = Choice.ALLOW_ONCE
    reason: str = ""
    note: str = ""
    text: str | None = None


class WorkspaceView(Protocol):
    """Read the text the user sees; deliver changes the user may refuse."""

    async def read_text(self, path: Path) -> FileText:
        """Return the current text of `path` (resolved, inside the workspace).

        Raises FileNotFoundError, IsADirectoryError, UnicodeDecodeError (not UTF-8) or OSError;
        the tools turn those into error results.
        """
        ...

    async def deliver(self, change: FileChange, *, review: bool) -> Delivery:
        """Apply `change`; when `review` is True, show it to the user first and obey the answer.

        Must not return APPLIED unless disk and any open buffer both equal `change.after`
        (or agree on the text the editor reformatted it to on save, said in `note`).
        """
        ...

    def unsaved_files(self) -> tuple[Path, ...]:
        """Files open in the editor whose buffer differs from disk (empty for plain disk)."""
        ...
