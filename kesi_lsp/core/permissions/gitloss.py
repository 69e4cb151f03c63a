"""The red line for git (issue 24 item 3): what git cannot give back.

- a forced push, in every spelling git accepts: `-f` (also in a cluster: `-uf`), `--force`,
  `--force-with-lease[=...]`, `--force-if-includes`, a unique prefix of them (`--forc`), a
  `+` refspec (`+main`, `+HEAD:main`), and `--mirror` (which forces every ref): it replaces
  the remote's history, and what it drops may exist nowhere else;
- `git clean` that deletes (`-f`, not `-n`) where the workspace is not: run in `/`, in home
  or above, or anywhere outside the workspace (after `cd`, `-C DIR`, `--work-tree=DIR`), or
  given a path that leaves it. Untracked files are in no commit: nothing brings them back.

git's global options before the subcommand are skipped (`git -C x -c k=v push -f`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from kesi_lsp.core.permissions.removal import Denial, Places, expand

GLOBAL_VALUES: Final = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"}
    | {"--exec-path", "--list-cmds", "--attr-source"}
)
FORCE_OPTIONS: Final = ("--force", "--force-with-lease", "--force-if-includes", "--mirror")
PUSH_VALUE_LETTERS: Final = frozenset("o")
"""`git push -o OPTION` (`--push-option`): the letters after it are its value."""
CLEAN_VALUE_LETTERS: Final = frozenset("e")
"""`git clean -e PATTERN`."""
CLEAN_VALUES: Final = frozenset({"-e", "--exclude"})

FORCED_PUSH: Final = Denial("permissions.reason.forced_push")
CLEAN_OUTSIDE: Final = Denial("permissions.reason.clean_outside")


def git_denial(args: Sequence[str], places: Places) -> Denial | None:
    """The red line for `git ARGS` (the words after the command name)."""
    index, where = 0, places.root
    work_tree: Path | None = None
    while index < len(args) and args[index].startswith("-"):
        flag, eq, value = args[index].partition("=")
        takes = flag in GLOBAL_VALUES and not eq
        if takes and index + 1 < len(args):
            value = args[index + 1]
        if flag == "-C" and value:
            where = _resolved(value, where, places)
        if flag == "--work-tree" and value:
            work_tree = _resolved(value, where, places)
        index += 2 if takes else 1
    if index >= len(args):
        return None
    sub, rest = args[index].casefold(), list(args[index + 1 :])
    if sub == "push" and _forced(rest):
        return FORCED_PUSH
    if sub == "clean" and _cleans(rest) and _outside(work_tree or where, rest, places):
        return CLEAN_OUTSIDE
    return None


def _resolved(text: str, base: Path, places: Places) -> Path:
    expanded = expand(text, places)
    if expanded is None:  # computed at run time: it may be anywhere
        return Path("/")
    return Path("/" + os.path.normpath(str(base / expanded)).lstrip("/"))


def _forced(args: list[str]) -> bool:
    options = True
    for text in args:
        if options and text == "--":
            options = False
        elif options and text.startswith("--"):
            flag = text.split("=", 1)[0]
            if len(flag) >= 5 and any(name.startswith(flag) for name in FORCE_OPTIONS):
                return True
        elif options and text.startswith("-") and text != "-":
            if _cluster_has(text, "f", PUSH_VALUE_LETTERS):
                return True
        elif text.startswith("+"):
            return True
    return False


def _cluster_has(text: str, letter: str, value_letters: frozenset[str]) -> bool:
    for char in text[1:]:
        if char == letter:
            return True
        if char in value_letters:
            return False
    return False


def _cleans(args: list[str]) -> bool:
    """`git clean` with `-f`/`--force` (given twice it also removes nested repositories) and
    without `-n`/`--dry-run`."""
    force = dry = False
    skip = False
    for text in args:
        if skip:
            skip = False
            continue
        if text == "--":
            break
        if text in CLEAN_VALUES:
            skip = True
        elif text.startswith("--"):
            flag = text.split("=", 1)[0]
            force = force or (len(flag) >= 3 and "--force".startswith(flag))
            dry = dry or (len(flag) >= 3 and "--dry-run".startswith(flag))
        elif text.startswith("-"):
            force = force or _cluster_has(text, "f", CLEAN_VALUE_LETTERS)
            dry = dry or _cluster_has(text, "n", CLEAN_VALUE_LETTERS)
    return force and not dry


def _outside(where: Path, args: list[str], places: Places) -> bool:
    """Whether cleaning in `where`, limited to the path operands in `args`, reaches beyond the
    workspace: `/`, home or above it, or any place not inside the workspace."""
    targets = [where]
    skip = False
    options = True
    for text in args:
        if skip:
            skip = False
        elif options and text == "--":
            options = False
        elif options and text in CLEAN_VALUES:
            skip = True
        elif not options or not text.startswith("-"):
            targets.append(_resolved(text, where, places))
    for target in targets:
        if target == Path("/") or places.home.is_relative_to(target):
            return True
        if not target.is_relative_to(places.fence):
            return True
    return False
