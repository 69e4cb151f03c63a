"""The slow walk list_files and glob used before the fast one: every candidate strictly resolved.

It is the seed's rule spelt out as plainly as possible (Day 07: re-resolve every result with
`safe_path`, drop what lands outside or in the ignore list), so the fast walk, which resolves
only symlinks, is checked against it on generated trees (`test_glob_equivalence.py`).
"""

from __future__ import annotations

import os
from fnmatch import fnmatchcase
from pathlib import Path

from kesi_lsp.core.paths import is_ignored, is_ignored_name, safe_path


def list_lines(root: Path, target: Path) -> list[str]:
    """One level of fenced folder `target`, sorted, folders with `/`."""
    entries: list[tuple[str, bool]] = []
    with os.scandir(target) as listing:
        for entry in listing:
            if is_ignored_name(entry.name):
                continue
            resolved = safe_path(root, target / entry.name)
            if resolved is None or is_ignored(root, resolved):
                continue
            entries.append((entry.name, resolved.is_dir()))
    return [name + "/" if is_dir else name for name, is_dir in sorted(entries)]


def _subdirs(directory: Path) -> list[Path]:
    found = [directory]
    try:
        with os.scandir(directory) as listing:
            children = [
                directory / entry.name
                for entry in listing
                if not is_ignored_name(entry.name) and entry.is_dir(follow_symlinks=False)
            ]
    except OSError:
        return found
    for child in sorted(children):
        found.extend(_subdirs(child))
    return found


def _may_enter(root: Path, folder: Path) -> bool:
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


def glob_lines(root: Path, segments: list[str], dirs_only: bool) -> list[str]:
    """Every match of the compiled pattern, sorted, folders with `/`."""
    found: set[Path] = set()
    _select(root, root, segments, found)
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
    return [name + "/" if is_dir else name for name, is_dir in sorted(matches)]
