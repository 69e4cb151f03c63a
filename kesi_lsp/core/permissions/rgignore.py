"""Which hidden files ripgrep searches although it skips hidden files by default.

`rg KEY config` does not read `config/.env`: ripgrep skips hidden entries. But a whitelist
wins over that rule (tried with ripgrep 13): a glob option (`-g .env`, `--iglob`, a
`--type-add` type) or a `!` line in an ignore file (`.gitignore`, `.ignore`, `.rgignore` in the
folder, below it or in any folder above it, `.git/info/exclude`, git's global excludes, a file
given with `--ignore-file`). A cloned project can ship such a line. So the policy lets
ripgrep's hidden rule count only for hidden names that no such pattern matches.

Matching is deliberately loose (it may only err towards asking): a pattern counts by its last
path component, without case, and a pattern with braces or ending in `**` matches everything.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from kesi_lsp.core.permissions.removal import Places

IGNORE_FILES: Final = (".gitignore", ".ignore", ".rgignore")
MAX_IGNORE_BYTES: Final = 1_000_000
"""An ignore file larger than this is not read: it then counts as whitelisting everything."""
EVERYTHING: Final = "*"


def revealed(name: str, patterns: Sequence[str]) -> bool:
    """Whether one of the whitelist `patterns` may make ripgrep search the hidden `name`."""
    folded = name.casefold()
    for pattern in patterns:
        last = pattern.strip().rstrip("/").rsplit("/", 1)[-1]
        if "{" in pattern or last in ("", "**"):
            return True
        if fnmatch.fnmatchcase(folded, last.casefold()):
            return True
    return False


def option_patterns(globs: Iterable[str]) -> list[str]:
    """The whitelisting globs among `-g`/`--glob`/`--iglob`/`--type-add` values (`!x` ignores)."""
    return [glob for glob in globs if glob and not glob.startswith("!")]


def whitelist_lines(path: Path) -> list[str]:
    """The `!` patterns of one ignore file (none if it cannot be read as a small file)."""
    try:
        if not path.is_file():
            return []
        if path.stat().st_size > MAX_IGNORE_BYTES:
            return [EVERYTHING]
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line.strip()[1:] for line in text.splitlines() if line.strip().startswith("!")]


def folder_patterns(folder: Path) -> list[str]:
    """The `!` patterns of the ignore files directly in `folder` (they rule it and below)."""
    return [line for name in IGNORE_FILES for line in whitelist_lines(folder / name)]


def inherited_patterns(folder: Path, places: Places, ignore_files: Sequence[str]) -> list[str]:
    """The `!` patterns that reach `folder` from above it, from git and from `--ignore-file`."""
    found: list[str] = []
    for parent in folder.resolve().parents:
        found += folder_patterns(parent)
    found += whitelist_lines(places.root / ".git" / "info" / "exclude")
    found += whitelist_lines(places.home / ".config" / "git" / "ignore")
    for given in ignore_files:
        found += whitelist_lines(places.root / given)
    return found
