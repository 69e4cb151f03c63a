"""Does a word a read-only program is given reach a closed place? (seed Day 14 `touches_forbidden`)

Two questions, both answered from the filesystem without changing it:

- `touches_forbidden(word)`: the word names a path in the ignore list or outside the workspace.
  The seed's three tests stay (an ignored component as written, an existing path the fence
  refuses, a path that resolves inside to an ignored place); added: any `~` word, and any path
  that leaves the workspace even if it does not exist.
- `folder_holds_closed(word)` (design §3): the word is a folder, and a program that reads the
  contents of folders (`grep -r`, `rg`, `diff -r`, `git diff --no-index`) would read an
  ignore-listed file inside it (`diff -rN src .` printed `.env` and `.git/config`), or follow a
  symlink out of the workspace. `hidden_ok` models ripgrep, which skips hidden entries unless
  told otherwise or a whitelist reveals them (`rgignore.py`). A folder too large to look
  through counts as holding one.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path, PurePosixPath
from typing import Final

from kesi_lsp.core.paths import IGNORED_NAMES, IGNORED_PREFIX
from kesi_lsp.core.permissions.removal import Places
from kesi_lsp.core.permissions.rgignore import (
    folder_patterns,
    inherited_patterns,
    option_patterns,
    revealed,
)

MAX_WALK: Final = 20_000
"""Entries a folder check looks at before it gives up (and asks)."""

_IGNORED_FOLDED: Final = frozenset(name.casefold() for name in IGNORED_NAMES)


def is_ignored_name(name: str) -> bool:
    """The ignore list, compared without case: on a case-insensitive disk (macOS, Windows)
    `cat .ENV` opens `.env`."""
    folded = name.casefold()
    return folded in _IGNORED_FOLDED or folded.startswith(IGNORED_PREFIX)


def touches_forbidden(raw: str, places: Places) -> bool:
    """Tell whether a word names a path in the ignore list or outside the workspace."""
    if not raw:
        return False
    if raw.startswith("~"):
        return True
    root = places.root
    candidate = root / raw
    lexical = Path(os.path.normpath(candidate))
    if not lexical.is_relative_to(root):
        return True
    written = PurePosixPath(raw)
    if written.is_absolute():  # only the part below the workspace: a project may live in ~/venv/
        written = PurePosixPath(os.path.normpath(raw)).relative_to(root)
    if any(is_ignored_name(part) for part in written.parts):
        return True
    try:
        resolved = candidate.resolve(strict=False)
        exists = candidate.exists() or candidate.is_symlink()
    except (OSError, RuntimeError, ValueError):
        return True
    if not resolved.is_relative_to(root):
        return True
    if exists:
        try:
            resolved = candidate.resolve(strict=True)
        except (OSError, RuntimeError, ValueError):
            return True  # a broken symlink or a loop: the fence would refuse it
    return any(is_ignored_name(part) for part in resolved.relative_to(root).parts)


def folder_holds_closed(
    raw: str,
    places: Places,
    *,
    hidden_ok: bool = False,
    reveals: Sequence[str] = (),
    ignore_files: Sequence[str] = (),
) -> bool:
    """Tell whether the folder `raw` (inside the workspace) holds something closed to the tools.

    Not a folder (a file, nothing at all): False, `touches_forbidden` judges the word itself.
    A symlink to a folder inside the workspace is judged by that folder (`grep -r x link`
    follows it). `hidden_ok`: the program skips hidden entries unless a whitelist reveals them
    (`rgignore.py`); `reveals` and `ignore_files` are the whitelists its options add.
    """
    folder = places.root / raw
    try:
        if folder.is_symlink():
            folder = folder.resolve(strict=True)
            if not folder.is_relative_to(places.root):
                return False  # outside: touches_forbidden asks for the word itself
        if not folder.is_dir():
            return False
    except (OSError, RuntimeError):
        return True
    base = None
    if hidden_ok:
        base = option_patterns(reveals) + inherited_patterns(folder, places, ignore_files)
    pending: list[tuple[Path, list[str] | None]] = [(folder, base)]
    seen = 0
    while pending:
        current, inherited = pending.pop()
        try:
            with os.scandir(current) as listing:
                entries = list(listing)
        except OSError:
            continue  # unreadable to us: the program cannot read it either
        patterns = None if inherited is None else inherited + folder_patterns(current)
        for entry in entries:
            seen += 1
            if seen > MAX_WALK:
                return True
            hidden = patterns is not None and entry.name.startswith(".")
            if hidden and not revealed(entry.name, patterns or ()):
                continue
            if is_ignored_name(entry.name) or _escapes(entry, places.root):
                return True
            if entry.is_dir(follow_symlinks=False):
                pending.append((Path(entry.path), patterns))
    return False


def _escapes(entry: os.DirEntry[str], root: Path) -> bool:
    """A symlink whose target leaves the workspace or lands on an ignored name."""
    if not entry.is_symlink():
        return False
    try:
        target = Path(entry.path).resolve(strict=True)
    except (OSError, RuntimeError):
        return False  # broken: nothing to read through it
    if not target.is_relative_to(root):
        return True
    return any(is_ignored_name(part) for part in target.relative_to(root).parts)
