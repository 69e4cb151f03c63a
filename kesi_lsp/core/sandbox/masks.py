"""The sandbox guard's masks: the bwrap arguments that hide, blank or close parts of the
workspace and of /etc for one command (the guard's first job, `guard.py`).

Computed by the guard at the moment the command starts, so what exists *now* is covered. Part
of the guard: run by path with `-I -S`, it imports nothing but the standard library.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

MAX_GIT_CONFIGS: Final = 500
GIT_INTERNALS: Final = frozenset({"objects", "refs", "logs", "hooks", "info", "lfs", "rr-cache"})


class MaskSpec(Protocol):
    """What the masks need of the guard's spec (`guard.Spec`)."""

    @property
    def root(self) -> str: ...
    @property
    def secret_names(self) -> Sequence[str]: ...
    @property
    def secret_prefixes(self) -> Sequence[str]: ...
    @property
    def readonly_names(self) -> Sequence[str]: ...
    @property
    def blank_files(self) -> Sequence[str]: ...
    @property
    def deny_paths(self) -> Sequence[str]: ...
    @property
    def max_entries(self) -> int: ...


@dataclass(frozen=True)
class Kit:
    """Mask sources: a file and a folder nobody may open, and an empty readable file."""

    denied_file: str
    denied_dir: str
    empty_file: str


@contextlib.contextmanager
def mask_kit() -> Iterator[Kit]:
    folder = Path(tempfile.mkdtemp(prefix="kesi-sandbox-"))
    denied_file, denied_dir, empty_file = folder / "denied", folder / "denied.d", folder / "empty"
    try:
        denied_file.touch(0o000)
        denied_dir.mkdir(0o000)
        empty_file.touch(0o444)
        denied_file.chmod(0o000)  # the umask cannot add bits, but be explicit
        denied_dir.chmod(0o000)
        yield Kit(str(denied_file), str(denied_dir), str(empty_file))
    finally:
        with contextlib.suppress(OSError):
            denied_dir.chmod(0o700)
        shutil.rmtree(folder, ignore_errors=True)


def workspace_masks(spec: MaskSpec, kit: Kit) -> list[str] | None:
    """bwrap arguments that close the ignore list inside the workspace; None if too large.

    Order matters to bwrap (later mounts cover earlier ones), and the walk is top-down, so a
    folder's mount always comes before anything mounted inside it. Names are compared without
    case, like the file tools' ignore list: a workspace on a case-insensitive disk (a mounted
    NTFS or FAT drive, an ext4 casefold folder) has `.ENV` meaning `.env`; on an ordinary Linux
    disk a file really called `.ENV` is masked too (failing closed).
    """
    secret = {name.casefold() for name in spec.secret_names}
    prefixes = tuple(prefix.casefold() for prefix in spec.secret_prefixes)
    readonly = {name.casefold() for name in spec.readonly_names}
    args: list[str] = []
    pending = [spec.root]
    seen = 0
    while pending:
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue  # unreadable to us: unreadable inside the sandbox too
        for entry in entries:
            seen += 1
            if seen > spec.max_entries:
                return None
            if entry.is_symlink():
                continue  # the mask is on the target's own path, if it is in reach
            name = entry.name.casefold()
            is_dir = entry.is_dir(follow_symlinks=False)
            if name in secret or name.startswith(prefixes):
                args += ["--ro-bind", kit.denied_dir if is_dir else kit.denied_file, entry.path]
            elif name in readonly:
                args += ["--ro-bind", entry.path, entry.path]
                if name == ".git" and is_dir:
                    args += _blanks(entry.path, kit) + _sockets_in(entry.path, kit)
            elif is_dir:
                pending.append(entry.path)
            elif _is_socket(entry):
                args += ["--ro-bind", kit.denied_file, entry.path]
    return args


def _is_socket(entry: os.DirEntry[str]) -> bool:
    """A UNIX socket file: connecting to it would reach whatever host program listens there
    (a "no network" sandbox must not hand that out), so it is covered by a file nobody may
    open. Sockets a command creates during its run are its own and work."""
    if entry.is_file(follow_symlinks=False) or entry.is_dir(follow_symlinks=False):
        return False  # (known from the listing itself; only special files are looked at)
    try:
        return stat.S_ISSOCK(entry.stat(follow_symlinks=False).st_mode)
    except OSError:
        return False


def _sockets_in(git_dir: str, kit: Kit) -> list[str]:
    """Sockets among `.git`'s own entries (git's fsmonitor daemon listens in one)."""
    try:
        with os.scandir(git_dir) as listing:
            return [
                a for e in listing if _is_socket(e) for a in ("--ro-bind", kit.denied_file, e.path)
            ]
    except OSError:
        return []


def _blanks(git_dir: str, kit: Kit) -> list[str]:
    """Blank the repository's config and its submodules' and worktrees' (`.git/modules/*/`,
    `.git/worktrees/*/`): remote URLs with tokens, programs git would run."""
    paths = [Path(git_dir, "config"), Path(git_dir, "config.worktree")]
    for folder in ("modules", "worktrees"):
        for current, dirs, files in os.walk(Path(git_dir, folder)):
            dirs[:] = [d for d in dirs if d not in GIT_INTERNALS]  # not objects/, refs/, ...
            paths += [Path(current, n) for n in files if n in ("config", "config.worktree")]
            if len(paths) > MAX_GIT_CONFIGS:
                break
    args: list[str] = []
    for path in paths[:MAX_GIT_CONFIGS]:
        if path.is_file() and not path.is_symlink():
            args += ["--ro-bind", kit.empty_file, str(path)]
    return args


def extra_masks(spec: MaskSpec, kit: Kit) -> list[str]:
    """Masks decided by the host: blank git configs outside the workspace, unreadable files."""
    args: list[str] = []
    for path in spec.blank_files:
        if Path(path).is_file() and not Path(path).is_symlink():
            args += ["--ro-bind", kit.empty_file, path]
    for path in spec.deny_paths:
        with contextlib.suppress(OSError):
            mode = os.lstat(path).st_mode
            if stat.S_ISLNK(mode):
                continue
            source = kit.denied_dir if stat.S_ISDIR(mode) else kit.denied_file
            args += ["--ro-bind", source, path]
    return args
