"""The editor's diagnostics seam: what every language server in the editor reports (§2.10).

KeSi is one language server among several: pyright, rust-analyzer or eslint already know,
seconds after an edit, whether it broke something. The editor (not KeSi) sees their
diagnostics, so the adapter asks it (`kesi/diagnostics`) and hands the answer to the core as
`Snapshot`s. The core never learns how: `EditorProblems` is the whole seam.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class EditorProblem:
    """One error or warning a language server reports (`line` is 1-based)."""

    rel: str
    line: int
    severity: Severity
    message: str
    source: str | None = None
    code: str | None = None

    def identity(self) -> tuple[str, str, str | None, str | None, str]:
        """What makes two reports the same problem: not the line (an edit above moves it)."""
        return (self.rel, self.severity, self.source, self.code, self.message)


@dataclass(frozen=True)
class Snapshot:
    """The editor's errors and warnings for some files, at one moment.

    `changes` counts, per file, how many times the editor's diagnostics of it were updated
    (by any language server), when the editor can say: a new count means a server has looked
    at the file again, even if it found the same problems. None when it cannot say.
    """

    problems: Mapping[Path, tuple[EditorProblem, ...]] = field(default_factory=dict)
    changes: Mapping[Path, int | None] = field(default_factory=dict)


class ProblemsUnavailableError(Exception):
    """The editor answered with an error, or not in time; the message says which."""


class EditorProblems(Protocol):
    """Ask the editor what its language servers report; know which files it has open."""

    async def snapshot(self, paths: Sequence[Path], patience: float) -> Snapshot:
        """The current errors and warnings of `paths` (resolved, inside the workspace).

        Raises ProblemsUnavailableError when the editor answers with an error or not within
        `patience` seconds.
        """
        ...

    def open_files(self) -> tuple[Path, ...]:
        """The files open in the editor (resolved), whose problems a command may change."""
        ...
