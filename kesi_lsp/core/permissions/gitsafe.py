"""Read-only git: which subcommands run without asking, and what their words must still prove.

The subcommands are `status log diff show branch rev-parse ls-files`, after git's harmless
global options (`git --no-pager log`, `-P`, `--no-optional-locks`). How an allowed git then
runs, with its configured programs off, is `gitrun.py`'s.

What git can be made to print or run is checked here (design §3):

- options that write or run programs ask (`--output`, `--ext-diff`, `--textconv`,
  `--show-signature`, `%G` formats, `--submodule`), in any unique prefix (`--out=x`, `--ext`):
  git's option parser takes those;
- `git status -v` prints staged patches without the secret exclusions: asks in every spelling
  (`-sv`, `--verb`); `git branch` that changes something asks in every spelling too (`-uX`,
  `--edit`, which starts the configured editor, `--set-up=X`);
- `--ignore-submodules=none`/`untracked` asks: looking into submodules runs their own git, with
  their own config;
- git's own path forms are path-checked (`HEAD:.env`, `:0:.env`, `-L1,1:.env`), pathspec magic
  asks (`:(top).env`), and revisions given to `show`/`diff` are returned so the policy can ask
  git whether one names a stored file (`git show <id>` prints a blob: maybe a committed `.env`);
  `git show --all` (`--tags`, `--glob`...) shows every ref of a set, so the policy asks git
  about each ref (a tag of a `.env` blob printed it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

READ_ONLY: Final = ("status", "log", "diff", "show", "branch", "rev-parse", "ls-files")
HARMLESS_GLOBALS: Final = frozenset({"--no-pager", "-P", "--no-optional-locks"})
"""Global options that only turn things off; the command that runs has them anyway."""
REFUSED: Final = (
    "--output",
    "--ext-diff",
    "--textconv",
    "--show-signature",
    "--submodule",
    "--paginate",
    "--open-files-in-pager",
)
STATUS_VALUE_LETTERS: Final = frozenset("uM")
"""`git status -uno`, `-M50`: the letters after these are their value, not options."""
BRANCH_CHANGES: Final = frozenset(
    {"--delete", "--move", "--copy", "--force", "--set-upstream-to", "--unset-upstream"}
    | {"--edit-description", "--track", "--no-track", "--create-reflog", "--recurse-submodules"}
)
BRANCH_CHANGE_LETTERS: Final = frozenset("dDmMcCfut")
BRANCH_LISTS: Final = frozenset(
    {"-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}
)
SUBMODULES_LOOKED_INTO: Final = frozenset({"none", "untracked"})
REF_SETS: Final = (
    "--all",
    "--branches",
    "--tags",
    "--remotes",
    "--glob",
    "--reflog",
    "--alternate-refs",
    "--bisect",
    "--stdin",
)
"""`git show` options that show every ref of a set: a tag may name a stored file (a blob)."""


@dataclass
class GitCheck:
    """What the policy must still check of a git command, or why it asks."""

    paths: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    revisions: list[str] = field(default_factory=list)
    """Operands of `show`/`diff` that may name a stored object (ask git: is it a blob?)."""
    all_refs: bool = False
    """`git show --all` (`--tags`...): every ref may be shown, so each must be asked about."""
    question: str | None = None  # a catalog key


def command_words(tokens: list[str]) -> list[str]:
    """`git [harmless globals] SUB ARGS...` → `["git", SUB, ARGS...]`."""
    index = 1
    while index < len(tokens) and tokens[index] in HARMLESS_GLOBALS:
        index += 1
    return [tokens[0], *tokens[index:]]


def in_work_tree(root: Path) -> bool:
    """Whether git run in `root` finds a repository (a `.git` here or in a parent folder).

    Outside one, `git diff A B` is `git diff --no-index A B`: it compares whatever folders it is
    given, so it is judged like the explicit form, and runs without pathspecs (which the
    `--no-index` form refuses)."""
    return any((folder / ".git").exists() for folder in (root, *root.parents))


def check(tokens: list[str], *, repository: bool = True) -> GitCheck:
    """Judge `git SUB ARGS...` (tokens[0] is `git`) for read-only use; `repository` is
    whether the command runs inside a git work tree (see `in_work_tree`)."""
    result = GitCheck()
    words = command_words(tokens)
    sub = words[1] if len(words) > 1 else ""
    if sub not in READ_ONLY:
        result.question = "permissions.reason.not_listed"
        return result
    args = words[2:]
    options_done = False
    operands: list[str] = []
    for word in args:
        if not options_done and word == "--":
            options_done = True
            continue
        is_option = not options_done and word.startswith("-") and word != "-"
        if is_option and _refused(sub, word):
            result.question = "permissions.reason.git_options"
            return result
        if word.startswith((":(", ":!", ":^")):
            result.question = "permissions.reason.forbidden_path"
            return result
        result.paths += _path_forms(word)
        if is_option:
            result.paths += _option_values(word)
            result.all_refs |= sub == "show" and _prefix_of(word.split("=", 1)[0], REF_SETS)
        else:
            operands.append(word)
            if not options_done and sub in ("show", "diff") and ":" not in word:
                result.revisions += _revision_parts(word)
    if sub == "branch" and operands and not any(w in BRANCH_LISTS for w in args):
        result.question = "permissions.reason.git_options"  # `git branch NAME` makes one
        return result
    result.paths += operands
    if sub == "diff" and ("--no-index" in args or not repository):
        result.folders += operands
    return result


def _prefix_of(flag: str, names: frozenset[str] | tuple[str, ...]) -> bool:
    """git takes any unique prefix of a long option (`--out=x` is `--output=x`)."""
    return flag.startswith("--") and len(flag) > 2 and any(name.startswith(flag) for name in names)


def _refused(sub: str, option: str) -> bool:
    flag, _, value = option.partition("=")
    if _prefix_of(flag, REFUSED):
        return True
    if flag in ("--format", "--pretty") or flag.startswith("--pretty="):
        return "%G" in option
    if flag == "--ignore-submodules" and value.casefold() in SUBMODULES_LOOKED_INTO:
        return True
    if sub == "status":
        return _prefix_of(flag, ("--verbose",)) or _short_letter(flag, "v", STATUS_VALUE_LETTERS)
    if sub == "branch":
        return _prefix_of(flag, BRANCH_CHANGES) or any(
            _short_letter(flag, letter, frozenset()) for letter in BRANCH_CHANGE_LETTERS
        )
    return False


def _short_letter(flag: str, letter: str, value_letters: frozenset[str]) -> bool:
    """Whether the short-option cluster `flag` (`-sv`) holds `letter` before any value."""
    if flag.startswith("--") or not flag.startswith("-"):
        return False
    for char in flag[1:]:
        if char == letter:
            return True
        if char in value_letters:
            return False
    return False


def _path_forms(word: str) -> list[str]:
    """git's `REV:PATH`, `:N:PATH`, `:PATH` and `-L...:PATH`: the path parts to check."""
    if ":" not in word:
        return []
    first = word.split(":", 1)[1]
    last = word.rsplit(":", 1)[1]
    return [p.lstrip("/") if word.startswith(":/") else p for p in {first, last} if p]


def _option_values(option: str) -> list[str]:
    if option.startswith("--"):
        return [option.split("=", 1)[1]] if "=" in option else []
    return [option[i:] for i in range(2, len(option))]  # `-O/etc/passwd`, `-L1,1:x`


def _revision_parts(word: str) -> list[str]:
    """The revisions in `A`, `A..B`, `A...B`, `^A`, `A^!`: each may name an object."""
    parts = word.replace("...", "..").split("..")
    found = []
    for part in parts:
        part = part.lstrip("^")
        for suffix in ("^!", "^@"):
            part = part.removesuffix(suffix)
        if part:
            found.append(part)
    return found
