"""What a removal or an overwrite would hit: `/`, a home, a top-level folder, system files.

The seed (Day 14) denied removing the filesystem root or the home directory in its spellings
(`/`, `/*`, `~`, `$HOME`, `${HOME}/*`, `/root`, the real home path, and anything that resolves
to them, such as `//`, `/.` or `../..`). Added here: an ancestor of home or a top-level folder
such as `/usr`, and (design §3) any file under the system's own folders (`rm /etc/passwd`,
`> /usr/bin/python`), unless the workspace itself lives there (`/usr/src/app` in a container).
"""

from __future__ import annotations

import os
import pwd
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from kesi_lsp.core.permissions.shellwords import Word

ROOT_TARGETS: Final = frozenset(
    {"/", "/*", "~", "~/", "~/*", "$HOME", "$HOME/", "$HOME/*", "${HOME}", "${HOME}/"}
    | {"${HOME}/*", "/root"}
)
SYSTEM_DIRS: Final = (
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/sbin",
    "/usr",
    "/sys",
    "/proc",
    "/var/lib",
    "/var/db",
    "/system",
    "/library",
    "/private/etc",
    "/private/var/db",
)
"""The system's own folders (compared without case: macOS' disk is case-insensitive)."""


_HOME_VARIABLE = re.compile(r"^(\$HOME|\$\{HOME(:?[-=?][^}]*)?\})(?=/|$)")
"""`$HOME`, `${HOME}`, and the forms that are $HOME whenever it is set: `${HOME:?}`, `${HOME-x}`."""
_GLOB = re.compile(r"[*?\[]")


@dataclass(frozen=True)
class Denial:
    """Why a command is denied: a catalog key and its fields."""

    key: str
    command: str = ""


REMOVES_ROOT: Final = Denial("permissions.reason.removes_root")
REMOVES_SYSTEM_DIR: Final = Denial("permissions.reason.removes_system_dir")
SYSTEM_FILES: Final = Denial("permissions.reason.system_files")


@dataclass(frozen=True)
class Places:
    """The directories the red line needs (resolved): where the command runs (`root`, moved
    by `cd`), the user's home, and the workspace itself (`root` when not given); and the
    literal values the text assigns to names (`S=sudo; $S ls`), for computed command names."""

    root: Path
    home: Path
    workspace: Path | None = field(default=None)
    variables: frozenset[tuple[str, str]] = field(default=frozenset())

    @property
    def fence(self) -> Path:
        return self.workspace or self.root


def operands(args: Sequence[Word]) -> list[Word]:
    """Arguments that are not options (everything after `--` is an operand)."""
    result: list[Word] = []
    options = True
    for word in args:
        if options and word.text == "--":
            options = False
        elif not (options and word.text.startswith("-") and word.text != "-"):
            result.append(word)
    return result


def removal(args: Sequence[Word], places: Places) -> Denial | None:
    for word in operands(args):
        denial = target_denial(word, places)
        if denial:
            return denial
    return None


def expand(text: str, places: Places) -> str | None:
    """Expand a leading `~`, `~user`, `$HOME` or `${HOME}`; None if an expansion remains."""
    if text.startswith("~"):
        user, _, rest = text[1:].partition("/")
        if user:
            try:
                base = pwd.getpwnam(user).pw_dir
            except KeyError:
                return None
        else:
            base = str(places.home)
        text = base + ("/" + rest if rest or text.endswith("/") else "")
    text = _HOME_VARIABLE.sub(lambda _: str(places.home), text)
    if "$" in text or "`" in text:
        return None
    return text


def candidates(path: str, places: Places) -> set[str]:
    """The places `path` may mean: lexically normalised, and with symlinks resolved."""
    joined = str(places.root / path)
    found = {"/" + os.path.normpath(joined).lstrip("/")}
    try:
        found.add("/" + os.path.realpath(joined).lstrip("/"))
    except (OSError, ValueError):
        pass
    return found


def _is_home_or_above(path: str, home: Path) -> bool:
    return path == "/" or home == Path(path) or home.is_relative_to(path)


def is_system_path(path: str, places: Places) -> bool:
    """Whether `path` (absolute, normalised) is a system folder or lies in one, and is not
    inside the workspace."""
    if Path(path).is_relative_to(places.fence):
        return False
    folded = path.casefold()
    return any(folded == d or folded.startswith(d + "/") for d in SYSTEM_DIRS)


def target_denial(word: Word, places: Places) -> Denial | None:
    """Tell whether removing `word` would remove `/`, a home, its ancestors, a top-level folder
    or system files."""
    if word.text in ROOT_TARGETS:
        return REMOVES_ROOT
    expanded = expand(word.text, places)
    if expanded is None or not expanded:
        return None
    homes = {places.home}
    if word.text.startswith("~") and word.text[1:2] not in ("", "/"):
        other = expand(word.text.split("/", 1)[0], places)  # ~user: that user's home
        if other:
            homes.add(Path(other))
    if _GLOB.search(expanded):
        # A pattern in the last component removes the children of its parent: `/*`, `~/.*`.
        parent, slash, last = expanded.rstrip("/").rpartition("/")
        if _GLOB.search(parent) or not _GLOB.search(last):
            return None
        expanded = parent or (slash and "/") or "."
    paths = candidates(expanded, places)
    if any(_is_home_or_above(p, home) for p in paths for home in homes):
        return REMOVES_ROOT
    if any(p.count("/") == 1 for p in paths):
        return REMOVES_SYSTEM_DIR
    if any(is_system_path(p, places) for p in paths):
        return SYSTEM_FILES
    return None


def moved_away(name: str, args: Sequence[Word], places: Places) -> Denial | None:
    """What leaves its place: `mv`'s sources (`mv ~ /tmp/x` takes home away), and what
    `rsync --delete` (its destination) or `--remove-source-files` (its sources) removes."""
    found = operands(args)
    if name == "mv":
        return removal(_mv_sources(args, found), places)
    if name != "rsync" or len(found) < 2:
        return None
    removed: list[Word] = []
    if any(w.text.startswith("--del") for w in args):
        removed.append(found[-1])
    if any(w.text == "--remove-source-files" for w in args):
        removed += found[:-1]
    return next((d for w in removed if (d := target_denial(w, places)) is not None), None)


def _mv_sources(args: Sequence[Word], found: list[Word]) -> list[Word]:
    """`mv SRC... DEST`, or `mv -t DEST SRC...` / `--target-directory=DEST SRC...`."""
    for index, word in enumerate(args):
        if word.text.startswith("--target-directory=") or (
            word.text.startswith("-t") and len(word.text) > 2 and not word.text.startswith("--")
        ):
            return found
        if word.text in ("-t", "--target-directory") and index + 1 < len(args):
            target = args[index + 1]
            return [w for w in found if w is not target]
    return found[:-1]


def overwrite_denial(text: str, places: Places) -> Denial | None:
    """Tell whether writing to the path `text` would overwrite system files."""
    expanded = expand(text, places)
    if not expanded:
        return None
    if any(is_system_path(p, places) for p in candidates(expanded, places)):
        return SYSTEM_FILES
    return None
