"""Read-only git: which subcommands run without asking, and how they run (design §3).

Plain `git status` runs `core.fsmonitor`, plain `git diff` runs `diff.external` and textconv
drivers, and both run the clean filters of `.gitattributes` (`filter.<name>.clean`): one write
to `.git/config` or `~/.gitconfig` would turn every "read-only" git into code execution. So a
git command the policy allows runs with those programs turned off, and that command (not the
model's) is the one the user and the model are shown:

    git --no-pager --no-optional-locks -c core.fsmonitor=false -c core.hooksPath=/dev/null
        -c log.showSignature=false [-c filter.<name>.clean= ...] diff --no-ext-diff
        --no-textconv ... -- ':(exclude,glob,icase)**/.env' ...

`--no-optional-locks` keeps `git status` from writing the index (and the hook that follows).
Patches (`diff`, `show`, `log -p`) also leave out committed secrets (`.env`, `.env.*`,
`.DS_Store`), which the sandbox cannot mask because they live in `.git`'s objects.

What git can be made to print is checked too: options that write or run programs ask
(`--output`, `--ext-diff`, `--textconv`, `--show-signature`, `%G` formats, `--submodule`), and
git's own path forms are path-checked (`HEAD:.env`, `:0:.env`, `-L1,1:.env`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

READ_ONLY: Final = ("status", "log", "diff", "show", "branch", "rev-parse", "ls-files")
REFUSED: Final = (
    "--output",
    "--ext-diff",
    "--textconv",
    "--show-signature",
    "--submodule",
    "--paginate",
    "--open-files-in-pager",
)
STATUS_REFUSED: Final = frozenset({"-v", "-vv", "--verbose"})
BRANCH_CHANGES: Final = frozenset(
    {"-d", "-D", "-m", "-M", "-c", "-C", "-f", "-u", "-t", "--delete", "--move", "--copy"}
    | {"--force", "--set-upstream-to", "--unset-upstream", "--edit-description", "--track"}
    | {"--no-track", "--create-reflog", "--recurse-submodules"}
)
BRANCH_LISTS: Final = frozenset(
    {"-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"}
)
PATCH_OPTIONS: Final = ("-p", "-u", "--patch", "--cc", "-W", "--function-context", "--word-diff")
NEUTRAL: Final = (
    "--no-pager",
    "--no-optional-locks",
    "-c",
    "core.fsmonitor=false",
    "-c",
    "core.hooksPath=/dev/null",
    "-c",
    "log.showSignature=false",
)
SECRET_PATHSPECS: Final = (
    ":(exclude,glob,icase)**/.env",
    ":(exclude,glob,icase)**/.env.*",
    ":(exclude,glob,icase)**/.DS_Store",
)
MAX_INCLUDES: Final = 16

_FILTER_HEADER = re.compile(
    r'^\s*\[\s*filter\s+"((?:[^"\\]|\\.)*)"\s*\]|^\s*\[\s*filter\.([\w.-]+)\s*\]'
)
_INCLUDE_HEADER = re.compile(r"^\s*\[\s*include(If\s+[^\]]*)?\s*\]", re.IGNORECASE)
_SECTION = re.compile(r"^\s*\[")
_PATH_LINE = re.compile(r"^\s*path\s*=\s*(.+?)\s*$", re.IGNORECASE)


@dataclass
class GitCheck:
    """What the policy must still check of a git command, or why it asks."""

    paths: list[str] = field(default_factory=list)
    folders: list[str] = field(default_factory=list)
    question: str | None = None  # a catalog key


def check(tokens: list[str]) -> GitCheck:
    """Judge `git SUB ARGS...` (tokens[0] is `git`) for read-only use."""
    result = GitCheck()
    sub = tokens[1] if len(tokens) > 1 else ""
    if sub not in READ_ONLY:
        result.question = "permissions.reason.not_listed"
        return result
    args = tokens[2:]
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
        else:
            operands.append(word)
    if sub == "branch" and operands and not any(w in BRANCH_LISTS for w in args):
        result.question = "permissions.reason.git_options"  # `git branch NAME` makes one
        return result
    result.paths += operands
    if sub == "diff" and "--no-index" in args:
        result.folders += operands
    return result


def _refused(sub: str, option: str) -> bool:
    flag = option.split("=", 1)[0]
    if len(flag) > 2 and any(name.startswith(flag) for name in REFUSED):
        return True
    if flag in ("--format", "--pretty") or flag.startswith("--pretty="):
        return "%G" in option
    if sub == "status":
        return flag in STATUS_REFUSED
    if sub == "branch":
        return flag in BRANCH_CHANGES
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


def neutralized(tokens: list[str], root: Path, home: Path) -> list[str]:
    """The git command that actually runs for an allowed `tokens` (see the module text)."""
    sub, args = tokens[1], tokens[2:]
    words = ["git", *NEUTRAL]
    for name in sorted(filter_names(root, home)):
        words += [
            item
            for key in ("clean", "smudge", "process")
            for item in ("-c", f"filter.{name}.{key}=")
        ]
    submodules = (root / ".gitmodules").exists()
    if submodules:
        words += ["-c", "diff.submodule=short", "-c", "status.submoduleSummary=false"]
    words.append(sub)
    if sub in ("diff", "log", "show"):
        words += ["--no-ext-diff", "--no-textconv"]
    if submodules and sub in ("status", "diff"):
        words.append("--ignore-submodules=dirty")
    if not _prints_patches(sub, args):
        return [*words, *args]
    if "--" in args:
        return [*words, *args, *SECRET_PATHSPECS]
    paths = [w for w in args if not w.startswith("-") and (root / w).exists()]
    kept = [w for w in args if w not in paths]
    return [*words, *kept, "--", *paths, *SECRET_PATHSPECS]


def _prints_patches(sub: str, args: list[str]) -> bool:
    if sub in ("diff", "show"):
        return "--no-index" not in args
    if sub != "log":
        return False
    return any(w in PATCH_OPTIONS or w.startswith(("-U", "--unified", "--word-diff")) for w in args)


def filter_names(root: Path, home: Path) -> set[str]:
    """The `filter.<name>` drivers the user's and the repository's git config define."""
    files = [Path("/etc/gitconfig"), home / ".gitconfig", home / ".config" / "git" / "config"]
    files += _repository_configs(root)
    names: set[str] = set()
    seen: set[Path] = set()
    while files and len(seen) < MAX_INCLUDES:
        path = files.pop()
        if path in seen:
            continue
        seen.add(path)
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        in_include = False
        for line in lines:
            header = _FILTER_HEADER.match(line)
            if header:
                names.add((header.group(1) or header.group(2) or "").replace('\\"', '"'))
            if _SECTION.match(line):
                in_include = bool(_INCLUDE_HEADER.match(line))
            elif in_include and (included := _PATH_LINE.match(line)):
                target = included.group(1).strip('"')
                files.append(
                    Path(target.replace("~", str(home), 1))
                    if target.startswith("~")
                    else path.parent / target
                )
    return {name for name in names if name}


def _repository_configs(root: Path) -> list[Path]:
    git = root / ".git"
    if git.is_file():
        try:
            first = git.read_text(encoding="utf-8", errors="replace").splitlines()[0]
        except (OSError, IndexError):
            return []
        git = (root / first.partition(":")[2].strip()).resolve()
        common = git / "commondir"
        found = [git / "config.worktree"]
        if common.is_file():
            found.append((git / common.read_text().strip()).resolve() / "config")
        return [*found, git / "config"]
    return [git / "config", git / "config.worktree"]
