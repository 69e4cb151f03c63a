"""The sample project's own virtualenv, with pytest in it, made offline.

A real Python project has its `.venv`, and KeSi's sandbox is built around that: the project's
`.venv` stays readable inside bubblewrap, while everything outside the workspace (including
wherever kesi-lsp itself is installed) is not. So the demo gives the sample one too, and puts
its `bin` first on PATH, as an editor with the project's interpreter selected does; then
`python -m pytest` means the same thing for the demo, for KeSi and inside the sandbox.

There is no network to install from, and none is needed: pytest and the packages it requires
are copied from this Python's own installation (their files and metadata, as pip would have
laid them out).
"""

from __future__ import annotations

import os
import shutil
import sysconfig
import venv
from importlib import metadata
from pathlib import Path
from typing import Final

ROOT_PACKAGE: Final = "pytest"


def _requirements(name: str) -> list[str]:
    """The distributions `name` needs here (markers evaluated, extras ignored)."""
    from packaging.requirements import Requirement  # pytest's own dependency

    needed = []
    for line in metadata.requires(name) or []:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
            needed.append(requirement.name)
    return needed


def closure(root: str = ROOT_PACKAGE) -> list[metadata.Distribution]:
    """`root` and everything it requires, as installed in this Python."""
    seen: dict[str, metadata.Distribution] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        seen[key] = metadata.distribution(name)
        todo.extend(_requirements(name))
    return list(seen.values())


def _paths(env: Path) -> tuple[Path, Path]:
    scheme = {"base": str(env), "platbase": str(env)}
    return Path(sysconfig.get_path("purelib", vars=scheme)), Path(
        sysconfig.get_path("scripts", vars=scheme)
    )


def _copy_distribution(dist: metadata.Distribution, site: Path) -> None:
    base = Path(str(dist.locate_file(""))).resolve()
    for entry in dist.files or []:
        source = Path(str(dist.locate_file(entry))).resolve()
        try:
            rel = source.relative_to(base)
        except ValueError:  # console scripts and the like live outside site-packages
            continue
        if "__pycache__" in rel.parts or not source.is_file():
            continue
        target = site / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


def make_sample_venv(project: Path) -> Path:
    """Create `project/.venv` with pytest; return its `bin` (Scripts on Windows) folder."""
    env = project / ".venv"
    venv.EnvBuilder(symlinks=os.name != "nt", with_pip=False).create(env)
    site, scripts = _paths(env)
    for dist in closure():
        _copy_distribution(dist, site)
    return scripts


def python_in(scripts: Path) -> Path:
    """The interpreter of a virtualenv whose scripts folder is `scripts`."""
    return scripts / ("python.exe" if os.name == "nt" else "python")
