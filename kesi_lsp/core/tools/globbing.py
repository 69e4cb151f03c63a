"""The glob walk (seed Day 07): find what a relative pattern names, fast and inside the fence.

The pattern is matched one path segment at a time (`**` alone is any number of folders), so a
pattern without `**` only ever looks into the folders it names, and ignored names are pruned
at every depth before anything below them is read (`node_modules` is never even scanned).

Speed comes from strings and `os.scandir`: an entry's kind comes from its directory listing and
its path is a plain string. The fence is kept by resolving what can lead elsewhere, and only
that. A name that is not a symlink, in a folder known to lie inside the workspace, is inside it
too (at the folder's real path plus the name, and the name is not in the ignore list), so only
symlinks are resolved, strictly, and left out when they lead outside, into an ignored place or
nowhere. `**` never follows a symlink; a named segment may enter a symlinked folder that
resolves inside, and the walk then remembers where that folder really is.

With `.gitignore` rules (`gitignore`), what they ignore is neither matched nor walked into,
and noted; a segment without wildcards names its folder, so `dist/*.js` still looks in an
ignored `dist` (rg too searches a path it is given).

Matches are counted as they are found and only the first ones in sorted order are kept, in
small batches: no list of every match is built, sorted or freed in one go, since that holds the
interpreter lock for long enough to stall the event loop even from a worker thread.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fnmatch import translate
from pathlib import Path
from typing import Final

from kesi_lsp.core.paths import is_ignored, is_ignored_name, safe_path
from kesi_lsp.core.tools.gitignore import GitIgnore

BATCH: Final = 2048
DOUBLE_STAR: Final = "**"

Matcher = Callable[[str], object]


@dataclass(frozen=True, slots=True)
class Folder:
    """A folder the walk is in: its path as shown (relative, "" for the root) and where it
    really is (resolved; the root's path plus `rel` unless a symlink led here)."""

    rel: str
    real: str

    def child(self, name: str, real: str | None = None) -> Folder:
        rel = f"{self.rel}/{name}" if self.rel else name
        return Folder(rel, real if real is not None else self.real + os.sep + name)


class Matches:
    """Count every match, keep only the `keep` smallest (sorted) and drop repeats if asked.

    Repeats can only happen when a pattern has two `**` segments (`**/a/**/b` reaches `a/b/b`
    in two ways); only then is a set of every match kept.
    """

    def __init__(self, keep: int, *, dirs_only: bool, dedupe: bool) -> None:
        self.keep = keep
        self.dirs_only = dirs_only
        self.total = 0
        self._best: list[tuple[str, bool]] = []
        self._batch: list[tuple[str, bool]] = []
        self._seen: set[str] | None = set() if dedupe else None

    def add(self, rel: str, is_dir: bool) -> None:
        if self.dirs_only and not is_dir:
            return
        if self._seen is not None:
            if rel in self._seen:
                return
            self._seen.add(rel)
        self.total += 1
        self._batch.append((rel, is_dir))
        if len(self._batch) >= BATCH:
            self._merge()

    def first(self) -> list[str]:
        """The kept matches in order, folders with a trailing `/`."""
        self._merge()
        return [rel + "/" if is_dir else rel for rel, is_dir in self._best]

    def _merge(self) -> None:
        self._batch.extend(self._best)
        self._batch.sort()
        self._best = self._batch[: self.keep]
        self._batch = []


def is_literal(segment: str) -> bool:
    """A segment that names one entry (no `*`, `?` or `[`)."""
    return not any(magic in segment for magic in "*?[")


def entry_is_dir(entry: os.DirEntry[str]) -> bool:
    """Whether the entry is a folder (following a symlink); False when that cannot be told."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def compile_segments(segments: Sequence[str]) -> list[Matcher | None]:
    """One matcher per segment (case-sensitive, as `fnmatchcase`); None stands for `**`."""
    return [
        None if segment == DOUBLE_STAR else re.compile(translate(segment)).match
        for segment in segments
    ]


def _scan(folder: Folder) -> list[os.DirEntry[str]]:
    """The folder's entries minus ignored names; an unreadable folder has none."""
    try:
        with os.scandir(folder.real) as listing:
            return [entry for entry in listing if not is_ignored_name(entry.name)]
    except OSError:
        return []


def leads_elsewhere(entry: os.DirEntry[str]) -> bool:
    """A symlink, or on Windows any reparse point (Python 3.11 does not call a junction a
    symlink, but resolving follows it); an entry of unknown kind is treated the same way."""
    try:
        if entry.is_symlink():
            return True
        if os.name != "nt":
            return False
        attributes = getattr(entry.stat(follow_symlinks=False), "st_file_attributes", 0)
        return bool(attributes & stat.FILE_ATTRIBUTE_REPARSE_POINT)
    except OSError:
        return True


def _is_real_dir(entry: os.DirEntry[str]) -> bool:
    """A folder that is one in its own right: the only kind `**` walks into."""
    try:
        return not leads_elsewhere(entry) and entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _resolve_link(root: Path, folder: Folder, name: str) -> Path | None:
    """Where symlink `name` in `folder` leads, if that exists, is inside and is not ignored."""
    target = safe_path(root, folder.real + os.sep + name)
    if target is None or is_ignored(root, target):
        return None
    return target


def _walk(
    start: Folder, gitignore: GitIgnore | None
) -> Iterator[tuple[Folder, list[os.DirEntry[str]]]]:
    """`start` and every folder below it with their entries; never through a symlink, nor
    into a folder `gitignore` ignores."""
    stack = [start]
    while stack:
        folder = stack.pop()
        entries = _scan(folder)
        yield folder, entries
        for entry in entries:
            if not _is_real_dir(entry):
                continue
            if gitignore is not None and gitignore.ignores(folder.real, entry.name, True):
                gitignore.skip(folder.child(entry.name).rel, True)
                continue
            stack.append(folder.child(entry.name))


@dataclass(frozen=True, slots=True)
class Walk:
    """One glob run: the fenced root, the compiled pattern and where matches go."""

    root: Path
    matchers: list[Matcher | None]
    found: Matches
    literal: list[bool]
    gitignore: GitIgnore | None = None

    def select(
        self, folder: Folder, at: int, entries: list[os.DirEntry[str]] | None = None
    ) -> None:
        """Match segments `at`... below `folder` (whose entries may already be scanned)."""
        if at == len(self.matchers):
            if folder.rel:
                self.found.add(folder.rel, True)
            return
        matcher = self.matchers[at]
        if matcher is None:
            for sub, listing in _walk(folder, self.gitignore):
                self.select(sub, at + 1, listing)
            return
        last = at + 1 == len(self.matchers)
        for entry in _scan(folder) if entries is None else entries:
            if not matcher(entry.name) or self._left_out(folder, entry, at):
                continue
            if last:
                self._offer(folder, entry)
            else:
                child = self._enter(folder, entry)
                if child is not None:
                    self._below(folder, entry, at).select(child, at + 1)

    def _below(self, folder: Folder, entry: os.DirEntry[str], at: int) -> Walk:
        """The walk below a folder a segment entered: without `.gitignore` rules when the
        segment named an ignored folder outright (what is in it is all ignored too)."""
        if self.gitignore is None or not self.literal[at]:
            return self
        if not self.gitignore.ignores(folder.real, entry.name, True):
            return self
        return Walk(self.root, self.matchers, self.found, self.literal)

    def _left_out(self, folder: Folder, entry: os.DirEntry[str], at: int) -> bool:
        """Whether `.gitignore` leaves out an entry that matched segment `at` (noted if so)."""
        if self.gitignore is None or self.literal[at]:
            return False
        is_dir = entry_is_dir(entry)
        if not self.gitignore.ignores(folder.real, entry.name, is_dir):
            return False
        self.gitignore.skip(folder.child(entry.name).rel, is_dir)
        return True

    def _offer(self, folder: Folder, entry: os.DirEntry[str]) -> None:
        """A name that matched the last segment: a match unless it is a symlink leading astray."""
        rel = folder.child(entry.name).rel
        if not leads_elsewhere(entry):
            self.found.add(rel, _is_real_dir(entry))
            return
        target = _resolve_link(self.root, folder, entry.name)
        if target is not None:
            self.found.add(rel, target.is_dir())

    def _enter(self, folder: Folder, entry: os.DirEntry[str]) -> Folder | None:
        """The folder a named segment leads into: a real folder, or a symlink to one inside."""
        if not leads_elsewhere(entry):
            return folder.child(entry.name) if _is_real_dir(entry) else None
        target = _resolve_link(self.root, folder, entry.name)
        if target is None or not target.is_dir():
            return None
        return folder.child(entry.name, str(target))


def run_glob(
    root: Path,
    segments: Sequence[str],
    *,
    dirs_only: bool,
    keep: int,
    gitignore: GitIgnore | None = None,
) -> Matches:
    """Walk `root` for the pattern's `segments`; the matches counted, the first `keep` kept
    (what `gitignore` ignores left out, and noted in it)."""
    dedupe = sum(segment == DOUBLE_STAR for segment in segments) > 1
    found = Matches(keep, dirs_only=dirs_only, dedupe=dedupe)
    literal = [is_literal(segment) for segment in segments]
    walk = Walk(root, compile_segments(segments), found, literal, gitignore)
    walk.select(Folder("", str(root)), 0)
    return found
