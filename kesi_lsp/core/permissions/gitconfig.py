"""What the user's and the repository's git configuration would make a read-only git run.

Two things are looked up before an allowed git runs (design §3):

- the names of the configured filter drivers (`filter.<name>.clean/smudge/process`): git runs
  them on plain `git status` and `git diff` for paths whose attributes name them, so the
  command that runs turns each one off. Git itself is asked (`git config --list`): it knows
  that section names are case-blind (`[FILTER "x"]` is `filter.x`), follows `include.path` and
  `includeIf`, reads `$XDG_CONFIG_HOME` and `GIT_CONFIG_*`. Where git cannot answer, the config
  files are read here (the same rules, more roughly);
- the transport protocols the configuration allows explicitly (`protocol.<name>.allow`): a
  partial clone fetches missing objects on demand, through `core.sshCommand`,
  `remote.<name>.uploadpack` or a remote helper. `protocol.allow=never` stops that, except for
  the protocols named here, which are then turned off one by one.

`object_types` asks git what revisions name (`git show <id>` of a blob prints a stored file,
maybe a committed `.env`). All lookups read, run no configured program, and fetch nothing.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from kesi_lsp.core.sandbox import children

LOOKUP_SECONDS: Final = 5.0
MAX_INCLUDES: Final = 16
QUIET: Final = ("--no-pager", "--no-optional-locks", "-c", "core.fsmonitor=false")

_FILTER_KEY = re.compile(r"^filter\.(.+)\.(clean|smudge|process|required)$", re.IGNORECASE)
_PROTOCOL_KEY = re.compile(r"^protocol\.(.+)\.allow$", re.IGNORECASE)
_FILTER_HEADER = re.compile(
    r'^\s*\[\s*filter\s+"((?:[^"\\]|\\.)*)"\s*\]|^\s*\[\s*filter\.([\w.-]+)\s*\]', re.IGNORECASE
)
_PROTOCOL_HEADER = re.compile(
    r'^\s*\[\s*protocol\s+"((?:[^"\\]|\\.)*)"\s*\]|^\s*\[\s*protocol\.([\w.-]+)\s*\]',
    re.IGNORECASE,
)
_INCLUDE_HEADER = re.compile(r"^\s*\[\s*include(If\s+[^\]]*)?\s*\]", re.IGNORECASE)
_SECTION = re.compile(r"^\s*\[")
_PATH_LINE = re.compile(r"^\s*path\s*=\s*(.+?)\s*$", re.IGNORECASE)


@dataclass
class Configured:
    """Names the configuration defines: filter drivers and explicitly allowed protocols."""

    filters: set[str] = field(default_factory=set)
    protocols: set[str] = field(default_factory=set)


def configured(root: Path, home: Path) -> Configured:
    """The filter drivers and protocols git's configuration for `root` names (both ways)."""
    found = _from_files(root, home)
    asked = _from_git(root, home)
    if asked is not None:
        found.filters |= asked.filters
        found.protocols |= asked.protocols
    return found


def object_types(root: Path, home: Path, revisions: Sequence[str]) -> dict[str, str]:
    """What each revision names, peeled (`blob`, `tree`, `commit`); missing ones are left out."""
    if not revisions:
        return {}
    query = "".join(f"{revision}^{{}}\n" for revision in revisions)
    output = _git(root, home, ["cat-file", "--batch-check"], query)
    if output is None:
        return {}
    types: dict[str, str] = {}
    for revision, line in zip(revisions, output.splitlines(), strict=False):
        parts = line.split()
        if len(parts) == 3:  # `<id> <type> <size>`; a missing one is `<name> missing`
            types[revision] = parts[1]
    return types


def ref_names(root: Path, home: Path) -> list[str]:
    """Every ref of the repository (`refs/tags/x`...): what `git show --all` / `--tags` shows,
    a tag of a stored file included."""
    output = _git(root, home, ["for-each-ref", "--format=%(refname)"], "")
    return [] if output is None else [line for line in output.splitlines() if line]


def _from_git(root: Path, home: Path) -> Configured | None:
    output = _git(root, home, ["config", "--list", "--name-only", "-z"], "")
    if output is None:
        return None
    found = Configured()
    for name in output.split("\0"):
        name = name.strip()
        if filtered := _FILTER_KEY.match(name):
            found.filters.add(filtered.group(1))
        elif protocol := _PROTOCOL_KEY.match(name):
            found.protocols.add(protocol.group(1))
    return found


def _git(root: Path, home: Path, args: list[str], stdin: str) -> str | None:
    """Run a read-only git lookup in `root`, tied to the server (`children.run`); None when
    git cannot answer."""
    environ = {
        **os.environ,
        "HOME": str(home),
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_NO_LAZY_FETCH": "1",
    }
    offs = ["-c", "protocol.allow=never"]
    try:
        done = children.run(
            ["git", *QUIET, *offs, *args],
            cwd=root,
            input=stdin,
            env=environ,
            timeout=LOOKUP_SECONDS,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _from_files(root: Path, home: Path) -> Configured:
    """Read the config files directly: system, user, repository, and what they include."""
    files = [Path("/etc/gitconfig"), home / ".gitconfig", home / ".config" / "git" / "config"]
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg:
        files.append(Path(xdg) / "git" / "config")
    files += repository_configs(root)
    found = Configured()
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
        files += _read_lines(lines, path, home, found)
    return found


def _read_lines(lines: list[str], path: Path, home: Path, found: Configured) -> list[Path]:
    """Collect names from one file's lines; return the files it includes."""
    included: list[Path] = []
    in_include = False
    for line in lines:
        for header, names in ((_FILTER_HEADER, found.filters), (_PROTOCOL_HEADER, found.protocols)):
            match = header.match(line)
            if match:
                quoted, legacy = match.group(1), match.group(2)
                # `[filter "X"]` keeps the case of X; the old `[filter.X]` lowercases it.
                names.add(
                    quoted.replace('\\"', '"') if quoted is not None else (legacy or "").lower()
                )
        if _SECTION.match(line):
            in_include = bool(_INCLUDE_HEADER.match(line))
        elif in_include and (target := _PATH_LINE.match(line)):
            value = target.group(1).strip('"')
            expanded = value.replace("~", str(home), 1) if value.startswith("~") else value
            included.append(path.parent / expanded)
    return included


def repository_configs(root: Path) -> list[Path]:
    """The repository's own config files, for a `.git` folder or a `.git` file (worktrees)."""
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
