"""list_files and glob (seed Day 07): what is here, and where are the files of a kind.

Both resolve every symlink they are about to show, so one that leads out of the workspace, into
the ignore list or nowhere is left out; an entry that is not a symlink, in a folder that is
itself inside and not ignored, needs no resolving (see `globbing`). Both skip ignored names
while they walk, so `node_modules` is never even scanned. Output is sorted (stable for the model
and the prompt cache), directories end with `/`, an empty result says so in words, and a long
one says how many were left out (200 shown at most).
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
from kesi_lsp.core.tools.globbing import leads_elsewhere, run_glob
from kesi_lsp.core.tools.result import ToolResult

MAX_LIST_FILES: Final = 200


def capped(lines: list[str], locale: Locale, *, limit: int = MAX_LIST_FILES) -> str:
    """Join at most `limit` lines, and say how many there were when some are left out."""
    return capped_note(lines[:limit], len(lines), locale)


def capped_note(shown: list[str], total: int, locale: Locale) -> str:
    """Join the lines shown, and say how many there were in all when some are left out."""
    if total <= len(shown):
        return "\n".join(shown)
    note = text("tools.list.truncated", locale, total=total, shown=len(shown))
    return "\n".join(shown) + "\n" + note


def _listed(root: Path, entry: os.DirEntry[str]) -> tuple[str, bool] | None:
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


def _list(root: Path, raw: str, locale: Locale) -> ToolResult:
    target = safe_path(root, raw)
    if target is None:
        return ToolResult(text("tools.list.not_found", locale, path=raw), True)
    if is_ignored(root, target) or names_ignored(root, raw):
        return ToolResult(text("tools.list.ignored", locale), True)
    if not target.is_dir():
        return ToolResult(text("tools.list.not_dir", locale, path=raw), True)
    try:
        with os.scandir(target) as listing:
            entries = [shown for entry in listing if (shown := _listed(root, entry)) is not None]
    except OSError as exc:
        error = exc.strerror or exc
        return ToolResult(text("tools.list.os_error", locale, path=raw, error=error), True)
    if not entries:
        return ToolResult(text("tools.list.empty", locale))
    lines = [name + "/" if is_dir else name for name, is_dir in sorted(entries)]
    return ToolResult(capped(lines, locale))


async def list_files(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """List one directory level (the workspace itself when `path` is omitted)."""
    return await asyncio.to_thread(_list, ctx.session.root, args.get("path", "."), ctx.locale)


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


def _glob(root: Path, pattern: str, locale: Locale) -> ToolResult:
    refusal = _pattern_refusal(pattern)
    if refusal is not None:
        return ToolResult(text(refusal, locale), True)
    try:
        segments, dirs_only = compile_pattern(pattern, locale)
        found = run_glob(root, segments, dirs_only=dirs_only, keep=MAX_LIST_FILES)
    except (OSError, ValueError, RecursionError) as exc:
        return ToolResult(text("tools.glob.invalid", locale, error=exc), True)
    if not found.total:
        return ToolResult(text("tools.glob.no_match", locale, pattern=pattern))
    return ToolResult(capped_note(found.first(), found.total, locale))


async def glob_files(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Find files by a relative glob pattern (`*`, `?`, `[...]`, `**` for any depth)."""
    return await asyncio.to_thread(_glob, ctx.session.root, args["pattern"], ctx.locale)
