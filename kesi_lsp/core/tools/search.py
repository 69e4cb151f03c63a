"""list_files and glob (seed Day 07): what is here, and where are the files of a kind.

Both resolve every symlink they are about to show, so one that leads out of the workspace, into
the ignore list or nowhere is left out; an entry that is not a symlink, in a folder that is
itself inside and not ignored, needs no resolving (see `globbing`). Both skip ignored names
while they walk, so `node_modules` is never even scanned. Output is sorted (stable for the model
and the prompt cache), directories end with `/`, an empty result says so in words, and a long
one says how many were left out (200 shown at most). What the workspace's `.gitignore` files
ignore is left out too, as grep (rg) leaves it out, and the result says what was
(`kesi_lsp.core.tools.gitignore`; the `respectGitignore` setting turns it off).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.paths import is_escaping, is_ignored, is_ignored_name, names_ignored, safe_path
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.gitignore import GitIgnore
from kesi_lsp.core.tools.globbing import leads_elsewhere, run_glob
from kesi_lsp.core.tools.result import ToolResult

MAX_LIST_FILES: Final = 200
MAX_SKIPPED_NAMES: Final = 5


def capped(lines: list[str], locale: Locale, *, limit: int = MAX_LIST_FILES) -> str:
    """Join at most `limit` lines, and say how many there were when some are left out."""
    return capped_note(lines[:limit], len(lines), locale)


def capped_note(shown: list[str], total: int, locale: Locale) -> str:
    """Join the lines shown, and say how many there were in all when some are left out."""
    if total <= len(shown):
        return "\n".join(shown)
    note = text("tools.list.truncated", locale, total=total, shown=len(shown))
    return "\n".join(shown) + "\n" + note


def skipped_note(gitignore: GitIgnore | None, key: str, locale: Locale) -> str:
    """The line saying what `.gitignore` left out ("" when nothing was)."""
    if gitignore is None or not gitignore.skipped:
        return ""
    skipped = sorted(gitignore.skipped)
    names = text("common.list_sep", locale).join(skipped[:MAX_SKIPPED_NAMES])
    if len(gitignore.skipped) > MAX_SKIPPED_NAMES:
        names += " …"
    return "\n" + text(key, locale, count=len(gitignore.skipped), names=names)


def _found(root: Path, entry: os.DirEntry[str]) -> tuple[str, bool] | None:
    """An entry of a fenced folder as (name, is a folder), or None when it must not be shown."""
    if is_ignored_name(entry.name):
        return None
    if not leads_elsewhere(entry):
        with contextlib.suppress(OSError):
            return entry.name, entry.is_dir(follow_symlinks=False)
    resolved = safe_path(root, entry.path)
    if resolved is None or is_ignored(root, resolved):
        return None
    return entry.name, resolved.is_dir()


def _listed(
    root: Path, folder: Path, entry: os.DirEntry[str], gitignore: GitIgnore | None
) -> tuple[str, bool] | None:
    """`_found`, unless `.gitignore` ignores it (then it is noted)."""
    found = _found(root, entry)
    if found is not None and gitignore is not None and gitignore.ignores(str(folder), *found):
        gitignore.skip(found[0], found[1])
        return None
    return found


def _gitignore(root: Path, folder: Path | None, respect: bool) -> GitIgnore | None:
    """The workspace's `.gitignore` rules when they apply: on, in a git repository, and not
    for a `folder` that is itself ignored (asked for by name, it is shown as it is)."""
    gitignore = GitIgnore.of(root) if respect else None
    if gitignore is not None and folder is not None and gitignore.covers(root, folder):
        return None
    return gitignore


def _list(root: Path, raw: str, locale: Locale, respect: bool = True) -> ToolResult:
    target = safe_path(root, raw)
    if target is None:
        return ToolResult(text("tools.list.not_found", locale, path=raw), True)
    if is_ignored(root, target) or names_ignored(root, raw):
        return ToolResult(text("tools.list.ignored", locale), True)
    if not target.is_dir():
        return ToolResult(text("tools.list.not_dir", locale, path=raw), True)
    gitignore = _gitignore(root, target, respect)
    try:
        with os.scandir(target) as listing:
            entries = [e for entry in listing if (e := _listed(root, target, entry, gitignore))]
    except OSError as exc:
        error = exc.strerror or exc
        return ToolResult(text("tools.list.os_error", locale, path=raw, error=error), True)
    note = skipped_note(gitignore, "tools.list.gitignored", locale)
    if not entries:
        return ToolResult(text("tools.list.empty", locale) + note)
    lines = [name + "/" if is_dir else name for name, is_dir in sorted(entries)]
    return ToolResult(capped(lines, locale) + note)


async def list_files(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """List one directory level (the workspace itself when `path` is omitted)."""
    root, respect = ctx.session.root, ctx.session.settings.respect_gitignore
    return await asyncio.to_thread(_list, root, args.get("path", "."), ctx.locale, respect)


def _pattern_refusal(pattern: str) -> str | None:
    """The seed's checks on a glob pattern, before any disk is touched; a catalog key or None."""
    if not pattern.strip():
        return "tools.pattern_empty"
    if PurePosixPath(pattern) == PurePosixPath("."):
        return "tools.glob.dot"
    parts = (*PurePosixPath(pattern).parts, *PureWindowsPath(pattern).parts)
    if is_escaping(pattern) or ".." in parts or "\x00" in pattern:
        return "tools.glob.outside"
    return None


def compile_pattern(pattern: str, locale: Locale) -> tuple[list[str], bool]:
    """Split a glob into path segments (`**` alone = any depth) and whether it wants dirs only."""
    segments: list[str] = []
    for segment in pattern.split("/"):
        if segment in ("", "."):
            continue
        if "**" in segment and segment != "**":
            raise ValueError(text("tools.glob.double_star", locale))
        if segment == "**" and segments and segments[-1] == "**":
            continue
        segments.append(segment)
    return segments, pattern.endswith("/")


def _glob(root: Path, pattern: str, locale: Locale, respect: bool = True) -> ToolResult:
    refusal = _pattern_refusal(pattern)
    if refusal is not None:
        return ToolResult(text(refusal, locale), True)
    gitignore = _gitignore(root, None, respect)
    try:
        segments, dirs_only = compile_pattern(pattern, locale)
        found = run_glob(
            root, segments, dirs_only=dirs_only, keep=MAX_LIST_FILES, gitignore=gitignore
        )
    except (OSError, ValueError, RecursionError) as exc:
        return ToolResult(text("tools.glob.invalid", locale, error=exc), True)
    note = skipped_note(gitignore, "tools.glob.gitignored", locale)
    if not found.total:
        return ToolResult(text("tools.glob.no_match", locale, pattern=pattern) + note)
    return ToolResult(capped_note(found.first(), found.total, locale) + note)


async def glob_files(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Find files by a relative glob pattern (`*`, `?`, `[...]`, `**` for any depth)."""
    root, respect = ctx.session.root, ctx.session.settings.respect_gitignore
    return await asyncio.to_thread(_glob, root, args["pattern"], ctx.locale, respect)
