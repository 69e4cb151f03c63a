"""Say in words when the sandbox hid something a command reached for (design §3).

A tool's own error ("No such file or directory", "pyenv: cannot change working directory to
'/home/u/src'", "Permission denied") reads as "it is not there" or "it is broken". The seed's
Day 15 lesson is that the model then tells the user something false. So after a sandboxed
command, the paths its output names are looked up on the host: one that exists there but is
hidden inside the sandbox (outside every readable place), or is a secret the sandbox masks,
gets a note appended to the result, in the session's locale. Paths that do not exist on the
host either are really missing and get no note.

Only the clipped output the model sees is read, at most `MAX_CANDIDATES` words of it, and only
when it carries an error (`ERROR_WORDS`): a listing that merely names `.env` gets no note.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.sandbox import Sandbox
from kesi_lsp.core.sandbox.bubblewrap import (
    PRIVATE_TMP,
    SYSTEM_PATHS,
    BubblewrapSandbox,
    gib,
    unreadable_in_etc,
)
from kesi_lsp.core.sandbox.cgroups import memory_parents
from kesi_lsp.core.sandbox.seatbelt import SeatbeltSandbox
from kesi_lsp.core.sandbox.zones import SECRET_NAMES, SECRET_PREFIXES

MAX_CANDIDATES: Final = 200
MAX_SHOWN: Final = 3
READ_ONLY_ERROR: Final = "Read-only file system"

ERROR_WORDS: Final = re.compile(
    r"no such file|permission denied|not permitted|cannot|can't|not found|unable|error",
    re.IGNORECASE,
)
"""What a tool says when it could not reach something; without it, no note is added."""
MEMORY_ERROR: Final = re.compile(
    r"MemoryError|Cannot allocate memory|out of memory|bad_alloc|memory allocation .*failed|"
    r"Could not reserve enough space|failed to reserve",
    re.IGNORECASE,
)
"""What a program says when an allocation fails (Python, libc, Node, C++, Go, the JVM)."""
_WORD: Final = re.compile(r"[^\s'\"`,;()\[\]{}<>|=]+")
_SECRETS: Final = frozenset(name.casefold() for name in SECRET_NAMES)
_SECRET_PREFIXES: Final = tuple(prefix.casefold() for prefix in SECRET_PREFIXES)

Visible = Callable[[Path], bool]


def explain(sandbox: Sandbox, output: str, root: Path, locale: Locale) -> list[str]:
    """Notes for the model about what `sandbox` hid from a command that printed `output`."""
    if isinstance(sandbox, BubblewrapSandbox):
        home = sandbox.home
        visible = _bubblewrap_view(sandbox, root)
    elif isinstance(sandbox, SeatbeltSandbox):
        home = sandbox.home
        visible = _seatbelt_view(sandbox, root)
    else:
        return []
    notes: list[str] = []
    if READ_ONLY_ERROR in output:
        notes.append(text("sandbox.note.read_only", locale))
    if isinstance(sandbox, BubblewrapSandbox) and (note := _memory_note(sandbox, output, locale)):
        notes.append(note)
    if not ERROR_WORDS.search(output):
        return notes  # a listing that merely names `.env` or a path under home: no note
    hidden, secret = _classify(_candidates(output, root, home), root, visible)
    if hidden:
        notes.append(text("sandbox.note.hidden", locale, paths=_shown(hidden, locale)))
    if secret:
        notes.append(text("sandbox.note.secret", locale, paths=_shown(secret, locale)))
    return notes


def _memory_note(sandbox: BubblewrapSandbox, output: str, locale: Locale) -> str | None:
    """Without a memory cgroup the limit is RLIMIT_AS: an allocation fails with the program's
    own words ("MemoryError", "Cannot allocate memory"), which read as "the machine is out of
    memory". (With a cgroup the guard itself reports the limit.)"""
    limit = sandbox.limits.max_memory_bytes
    if limit <= 0 or not MEMORY_ERROR.search(output) or memory_parents():
        return None
    return text("sandbox.note.memory", locale, limit=gib(limit))


def _shown(paths: list[str], locale: Locale) -> str:
    listed = text("common.list_sep", locale).join(paths[:MAX_SHOWN])
    return listed + ("…" if len(paths) > MAX_SHOWN else "")


def _candidates(output: str, root: Path, home: Path) -> list[tuple[str, Path]]:
    """Words of `output` that look like paths, with the host path each one names."""
    found: dict[str, Path] = {}
    for match in _WORD.finditer(output):
        word = match.group().rstrip(".:")
        if "/" not in word and not _is_secret(word):
            continue
        if word.startswith("~/"):
            path = home / word[2:]
        elif word.startswith("/"):
            path = Path(word)
        else:
            path = root / word
        found.setdefault(word, Path(os.path.normpath(path)))
        if len(found) >= MAX_CANDIDATES:
            break
    return list(found.items())


def _is_secret(name: str) -> bool:
    folded = name.casefold()
    return folded in _SECRETS or folded.startswith(_SECRET_PREFIXES)


def _classify(
    candidates: Iterable[tuple[str, Path]], root: Path, visible: Visible
) -> tuple[list[str], list[str]]:
    hidden: list[str] = []
    secret: list[str] = []
    for word, path in candidates:
        try:
            exists = path.exists() or path.is_symlink()
        except (OSError, ValueError):
            continue
        if not exists:
            continue  # missing on the host too: the tool's own error is the truth
        if path.is_relative_to(root) and any(_is_secret(p) for p in path.relative_to(root).parts):
            secret.append(word)
        elif not visible(path):
            hidden.append(word)
    return hidden, secret


def _under(path: Path, places: Iterable[Path]) -> bool:
    return any(path == place or path.is_relative_to(place) for place in places)


def _bubblewrap_view(sandbox: BubblewrapSandbox, root: Path) -> Visible:
    """Inside bwrap a path is readable when it is under the workspace, a readable extra or a
    system folder (less the masked files of /etc); the private temp folders and home are empty
    there, and everything else is simply not mounted."""
    readable = [root.resolve(), *sandbox.readable(root.resolve())]
    system = [Path(p) for p in SYSTEM_PATHS] + [Path("/proc"), Path("/dev")]
    empty = [Path(p) for p in PRIVATE_TMP] + [sandbox.home]
    masked = [Path(p) for p in unreadable_in_etc()]

    def visible(path: Path) -> bool:
        if _under(path, readable):
            return True
        if _under(path, empty) or _under(path, masked):
            return False
        return _under(path, system)

    return visible


def _seatbelt_view(sandbox: SeatbeltSandbox, root: Path) -> Visible:
    """Seatbelt's profile denies home, /Users and /Volumes but the workspace and toolchains."""
    denied = [sandbox.home, Path("/Users"), Path("/Volumes")]
    allowed = [root.resolve(), *(Path(v) for k, v in sandbox.parameters(root) if "TOOLCHAIN" in k)]

    def visible(path: Path) -> bool:
        return not _under(path, denied) or _under(path, allowed)

    return visible
