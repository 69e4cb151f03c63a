"""The server's verdict on a run's changes: verified, failed or unverified (design §2.10).

A value of its own (computed by `kesi_lsp.core.verification.tracker`, carried by
`RunFinished`) so the front ends can show it without knowing how it was reached.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

VerdictStatus = Literal["verified", "failed", "unverified"]


@dataclass(frozen=True)
class Verdict:
    """`status`; `by`: the command that decided it (None when none did); `detail`: the sentence
    the user reads beside the bill, in the session's locale; `before_undo`: the check passed
    on text the user has since undone (`core.changes.labels.standing`), so the files are not
    verified now."""

    status: VerdictStatus
    by: str | None
    detail: str
    before_undo: bool = False
