"""list_files and glob (seed Day 07): what is here, and where are the files of a kind.

Both re-resolve every entry they are about to show, so a symlink that leads out of the workspace
or into the ignore list is left out, and both skip ignored names while they walk, so
`node_modules` is never even scanned. Output is sorted (stable for the model and the prompt
cache), directories end with `/`, an empty result says so in words, and a long one says how many
were left out (200 shown at most).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterator
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.paths import is_escaping, is_ignored, is_ignored_name, names_ignored, safe_path
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.tools.result import ToolResult

MAX_LIST_FILES: Final = 200


def capped(lines: list[str], locale: Locale, *, limit: int = MAX_LIST_FILES) -> str:
    """Join at most `limit` lines, and say how many there were when some are left out."""
    if len(lines) <= limit:
        return "\n".join(lines)
    note = text("tools.list.truncated", locale, total=len(lines), shown=limit)
    return "\n".join(lines[:limit]) + "\n" + note


def _list(root: Path, raw: str, locale: Locale) -> ToolResult:
    target = safe_path(root, raw)
    if target is None:
        return ToolResult(text("tools.list.not_found", locale, path=raw), True)
    if is_ignored(root, target) or names_ignored(root, raw):
        return ToolResult(text("tools.list.ignored", locale), True)
    if not target.is_dir():
        return ToolResult(text("tools.list.not_dir", locale, path=raw), True)
    entries: list[tuple[str, bool]] = []
    try:
        with os.scandir(target) as listing:
            for entry in listing:
                if is_ignored_name(entry.name):
                    continue
                resolved = safe_path(root, target / entry.name)
                if resolved is None or is_ignored(root, resolved):
                    continue
                entries.append((entry.name, resolved.is_dir()))
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


def _subdirs(directory: Path) -> Iterator[Path]:
    """`directory` and every folder below it, never through a symlink, never into ignored ones."""
    yield directory
    try:
        with os.scandir(directory) as listing:
            children = [
                directory / entry.name
                for entry in listing
                if not is_ignored_name(entry.name) and entry.is_dir(follow_symlinks=False)
            ]
    except OSError:
        return
    for child in sorted(children):
        yield from _subdirs(child)


def _may_enter(root: Path, folder: Path) -> bool:
    """A named (non-`**`) folder may be entered if it really is a folder inside, not ignored."""
    resolved = safe_path(root, folder)
    return resolved is not None and resolved.is_dir() and not is_ignored(root, resolved)


def _select(root: Path, directory: Path, segments: list[str], found: set[Path]) -> None:
    if not segments:
        found.add(directory)
        return
    head, rest = segments[0], segments[1:]
    if head == "**":
        for folder in _subdirs(directory):
            _select(root, folder, rest, found)
        return
    try:
        with os.scandir(directory) as listing:
            names = [entry.name for entry in listing]
    except OSError:
        return
    for name in names:
        if is_ignored_name(name) or not fnmatchcase(name, head):
            continue
        child = directory / name
        if not rest:
            found.add(child)
        elif _may_enter(root, child):
            _select(root, child, rest, found)


def _glob(root: Path, pattern: str, locale: Locale) -> ToolResult:
    refusal = _pattern_refusal(pattern)
    if refusal is not None:
        return ToolResult(text(refusal, locale), True)
    try:
        segments, dirs_only = compile_pattern(pattern, locale)
        found: set[Path] = set()
        _select(root, root, segments, found)
    except (OSError, ValueError, RecursionError) as exc:
        return ToolResult(text("tools.glob.invalid", locale, error=exc), True)
    matches: list[tuple[str, bool]] = []
    for candidate in found:
        if candidate == root:
            continue
        target = safe_path(root, candidate)
        if target is None or is_ignored(root, target):
            continue
        rel = candidate.relative_to(root)
        if any(is_ignored_name(part) for part in rel.parts):
            continue
        is_dir = target.is_dir()
        if dirs_only and not is_dir:
            continue
        matches.append((rel.as_posix(), is_dir))
    if not matches:
        return ToolResult(text("tools.glob.no_match", locale, pattern=pattern))
    lines = [name + "/" if is_dir else name for name, is_dir in sorted(matches)]
    return ToolResult(capped(lines, locale))


async def glob_files(args: dict[str, str], ctx: ToolContext) -> ToolResult:
    """Find files by a relative glob pattern (`*`, `?`, `[...]`, `**` for any depth)."""
    return await asyncio.to_thread(_glob, ctx.session.root, args["pattern"], ctx.locale)
