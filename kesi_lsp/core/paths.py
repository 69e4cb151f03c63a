"""The workspace fence and the ignore list (seed Days 06, 07 and 10).

Every path a tool touches passes through here. The rule is the seed's: resolve first (so `..`
and symlinks are followed to where they really lead), then check that the result is inside the
workspace and not in the ignore list. The ignore list is checked on the resolved path *and* on
the words the model wrote, so neither a symlink called `settings` pointing at `.env` nor a
symlink called `.env` pointing anywhere gets through.

Names are compared without case (casefolded), because the disks most editors run on do not
care about case: on macOS (APFS by default) and Windows `.ENV` *is* `.env`, and `.Git/config`
is `.git/config`. On Linux they are different files, so there a file really called `.ENV` or
a folder called `Node_Modules` is hidden too. That is the chosen trade-off: failing closed on a
rare name costs a refusal the model can read; failing open costs the user's secrets.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Final

IGNORED_NAMES: Final = frozenset(
    {
        ".git",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".env",
        ".DS_Store",
        ".pytest_cache",
    }
)
IGNORED_PREFIX: Final = ".env."
_IGNORED_FOLDED: Final = frozenset(name.casefold() for name in IGNORED_NAMES)

_RESOLVE_ERRORS = (OSError, RuntimeError, TypeError, ValueError)


def is_ignored_name(name: str) -> bool:
    """Tell whether one path component is in the ignore list (`.env.*` included), whatever
    its case: `.ENV`, `.Git` and `Node_Modules` are refused too (see the module docstring)."""
    folded = name.casefold()
    return folded in _IGNORED_FOLDED or folded.startswith(IGNORED_PREFIX)


def is_ignored(root: Path, target: Path) -> bool:
    """Tell whether resolved `target` lies in an ignored place under `root` (outside: True)."""
    try:
        parts = target.relative_to(root).parts
    except ValueError:
        return True
    return any(is_ignored_name(part) for part in parts)


def names_ignored(root: Path, raw: str) -> bool:
    """Tell whether the path as written names an ignored component, read POSIX or Windows.

    An absolute path inside the workspace is judged by its part below `root` only, so a
    workspace that itself lives under, say, `~/venv/project` stays usable.
    """
    posix = PurePosixPath(raw)
    if posix.is_absolute() and posix.is_relative_to(root):
        raw = posix.relative_to(root).as_posix()
    parts = (*PurePosixPath(raw).parts, *PureWindowsPath(raw).parts)
    return any(is_ignored_name(part) for part in parts)


def safe_path(root: Path, raw: str | Path) -> Path | None:
    """Resolve an existing path strictly; None unless it exists and lies inside `root`.

    A missing file, a malformed path (NUL byte, too long), a symlink loop or a symlink leading
    out of the workspace all give None; the caller words the refusal.
    """
    try:
        target = (root / raw).resolve(strict=True)
    except _RESOLVE_ERRORS:
        return None
    return target if target.is_relative_to(root) else None


def is_escaping(raw: str) -> bool:
    """Tell whether `raw` is written as an escape: `~`, absolute, a drive or a Windows root."""
    windows = PureWindowsPath(raw)
    return (
        raw.startswith("~")
        or PurePosixPath(raw).is_absolute()
        or bool(windows.drive)
        or bool(windows.root)
    )


def safe_write_path(root: Path, raw: str) -> Path | None:
    """Resolve a path that may not exist yet (a file to create); None if it is not allowed.

    Only relative paths are accepted: `~`, absolute paths and Windows drive or root paths are
    refused as written, and after a non-strict resolve (which still follows existing symlinks
    and `..`) the target must lie strictly inside `root`: the workspace itself is refused.
    """
    if not raw.strip() or "\x00" in raw or is_escaping(raw):
        return None
    try:
        target = (root / raw).resolve(strict=False)
    except _RESOLVE_ERRORS:
        return None
    if target == root or not target.is_relative_to(root):
        return None
    return target


def relative(root: Path, target: Path) -> str:
    """Return `target`'s POSIX path relative to `root` ("." for the root itself)."""
    return target.relative_to(root).as_posix() or "."
