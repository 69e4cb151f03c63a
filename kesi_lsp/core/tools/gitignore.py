"""What the workspace's `.gitignore` files ignore, for list_files and glob (seed Day 07).

The seed: 「真實世界的專案常用 `.gitignore` … KeSi 先不急著做」. grep already leaves out what git
ignores, because rg does; list_files and glob do the same, so the three tools agree on what the
project is: a build folder or a virtualenv under another name is not listed, and a glob for
`**/*.py` does not come back with 200 files of `dist/`. The rules are rg's (and git's): they
apply inside a git repository only (a `.git` in the workspace or a folder above it), every
`.gitignore` from the repository's top down to a folder applies to what is in it, a deeper one
and a later line win (`!` re-includes), and `.git/info/exclude` counts as a first `.gitignore`
at the top. A folder that is ignored is not walked, so nothing under it can come back. The
fence's ignore list (`.git`, `.env`, ...) applies on top, whatever `.gitignore` says.

What was skipped is counted, so a result can say so: the model must not conclude that a file
does not exist when it was only left out, and the user can turn this off (`respectGitignore`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import pathspec

GITIGNORE: Final = ".gitignore"

Specs = tuple[tuple[str, pathspec.GitIgnoreSpec], ...]
"""(folder, its rules) from the repository's top down: the rules that apply in a folder."""


def _read_spec(path: str) -> pathspec.GitIgnoreSpec | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    spec = pathspec.GitIgnoreSpec.from_lines(lines)
    return spec if len(spec) else None


def _repository_top(root: Path) -> Path | None:
    """The folder of the git repository the workspace is in (its `.git`), or None."""
    for folder in (root, *root.parents):
        if (folder / ".git").exists():
            return folder
    return None


@dataclass
class GitIgnore:
    """The `.gitignore` rules of one workspace, read as the walk reaches each folder.

    `skipped` collects the workspace-relative paths left out because of them (folders with a
    trailing `/`), in the order met.
    """

    top: str
    skipped: list[str] = field(default_factory=list)
    _specs: dict[str, Specs] = field(default_factory=dict)
    _noted: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, root: Path) -> GitIgnore | None:
        """The rules for `root` (resolved), or None outside a git repository."""
        top = _repository_top(root)
        if top is None:
            return None
        ignore = cls(str(top))
        exclude = _read_spec(str(top / ".git" / "info" / "exclude"))
        first: Specs = ((str(top), exclude),) if exclude is not None else ()
        ignore._specs[str(top)] = first + ignore._own(str(top))
        return ignore

    def _own(self, real: str) -> Specs:
        spec = _read_spec(real + os.sep + GITIGNORE)
        return ((real, spec),) if spec is not None else ()

    def specs(self, real: str) -> Specs:
        """The rules that apply to the entries of the folder at `real` (a resolved path)."""
        known = self._specs.get(real)
        if known is None:  # not the top: what its parent folder has, and its own
            parent = os.path.dirname(real)  # noqa: PTH120 (plain strings, as the glob walk)
            inherited = self.specs(parent) if parent != real else ()
            known = self._specs[real] = inherited + self._own(real)
        return known

    def ignores(self, real: str, name: str, is_dir: bool) -> bool:
        """Whether `name` in the folder at `real` is ignored: the deepest rule that matches
        decides (a later line within a file)."""
        path = real + os.sep + name
        for folder, spec in reversed(self.specs(real)):
            rel = path[len(folder) + 1 :].replace(os.sep, "/")
            verdict = spec.check_file(rel + "/" if is_dir else rel).include
            if verdict is not None:
                return verdict
        return False

    def covers(self, root: Path, target: Path) -> bool:
        """Whether the folder `target` (resolved, inside `root`) is ignored itself or lies in an
        ignored folder: asked for by name, it is shown as it is (rg searches a path it is given
        too)."""
        folder = root
        for part in target.relative_to(root).parts:
            if self.ignores(str(folder), part, True):
                return True
            folder = folder / part
        return False

    def skip(self, rel: str, is_dir: bool) -> None:
        """Note that `rel` was left out because of the rules (once)."""
        shown = rel + "/" if is_dir else rel
        if shown not in self._noted:
            self._noted.add(shown)
            self.skipped.append(shown)
