"""Per-session grants (seed Day 14): exact command strings and resolved file paths.

A grant never widens: `pytest -q` does not grant `pytest -v`, and `src/a.py` does not grant
`src/b.py`. Grants live in memory for the session and are visible and revocable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Grants:
    commands: set[str] = field(default_factory=set)
    files: set[Path] = field(default_factory=set)

    def clear(self) -> None:
        """Revoke everything (seed `/revoke`)."""
        self.commands.clear()
        self.files.clear()
