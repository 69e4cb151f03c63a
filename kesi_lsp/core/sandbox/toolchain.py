"""The user's real toolchain inside the sandbox (design §3): what commands find, and can read.

A sandbox that hides the interpreter the user works with breaks the fix loop's whole point
(run the tests, see green). Three things make the user's own set-up work in a command:

- The folders on `PATH` and the *active environment* stay readable (never writable): the
  `VIRTUAL_ENV` and `CONDA_PREFIX` in force, the folders where Poetry, pipenv,
  virtualenvwrapper and conda keep their environments, pyenv's and nvm's roots, and the base
  interpreter of any virtualenv among them (`home = ...` in its `pyvenv.cfg`). The seed's
  `TOOLCHAIN_DIRS` (Day 15) stay too.
- A workspace `.venv` (else `venv`) comes first on `PATH` and is the `VIRTUAL_ENV` of every
  command, as if the user had activated it; the system prompt names it.
- Variables a launcher set for `kesi-lsp` itself are not passed on. pyenv's shim starts the
  server through `pyenv exec`, which exports `PYENV_DIR` (the folder the editor started in:
  hidden by the sandbox, so every later `python` dies with "pyenv: cannot change working
  directory") and `PYENV_VERSION` (which would override the project's `.python-version`), and
  puts the chosen version's `bin` and pyenv's own `libexec` in front of `PATH`. `PYENV_DIR` is
  the launcher's mark: only when it is present are those removed, so a `PYENV_VERSION` the user
  set in a shell (`pyenv shell`) is left alone.

Nothing here may open a hole into the user's secrets: a folder that is home or above it, `/`,
inside the workspace (its masks would be covered) or inside a credentials folder is never
mounted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

from kesi_lsp.core.sandbox.env import scrub_environment
from kesi_lsp.core.sandbox.zones import SECRET_HOME_DIRS, TOOLCHAIN_DIRS

LAUNCHER_VARIABLES: Final = ("PYENV_DIR", "PYENV_VERSION", "_PYENV_INSTALL_PREFIX")
LAUNCHER_PREFIXES: Final = ("_PYENV_SHIM_PATHS_",)
VENV_NAMES: Final = (".venv", "venv")
MAX_CHILDREN: Final = 200
ENV_MARKERS: Final = ("pyvenv.cfg", "conda-meta")

ENVIRONMENT_VARIABLES: Final = ("VIRTUAL_ENV", "CONDA_PREFIX", "MAMBA_ROOT_PREFIX", "PIXI_HOME")
"""Variables naming the active environment (a folder to keep readable)."""

HOME_ENVIRONMENT_DIRS: Final = (
    ".cache/pypoetry/virtualenvs",  # Poetry on Linux
    "Library/Caches/pypoetry/virtualenvs",  # Poetry on macOS
    ".local/share/virtualenvs",  # pipenv
    ".virtualenvs",  # virtualenvwrapper
    ".conda",
    "miniconda3",
    "anaconda3",
    "miniforge3",
    "mambaforge",
    "micromamba",
    ".pixi",
)
"""Where the common environment managers keep their environments under home."""


def without_launcher(base: Mapping[str, str]) -> dict[str, str]:
    """`base` less what pyenv's launcher set for kesi-lsp itself (see the module text)."""
    env = dict(base)
    if "PYENV_DIR" not in env:
        return env
    root = env.get("PYENV_ROOT", "")
    prefix = env.get("_PYENV_INSTALL_PREFIX", root)
    for name in list(env):
        if name in LAUNCHER_VARIABLES or name.startswith(LAUNCHER_PREFIXES):
            del env[name]
    if root and "PATH" in env:
        env["PATH"] = _strip_pyenv_prefix(env["PATH"], Path(root), Path(prefix or root))
    return env


def _strip_pyenv_prefix(path: str, root: Path, install: Path) -> str:
    """Drop the entries `pyenv exec` put in front: a version's bin, libexec, plugins' bins."""
    entries = path.split(os.pathsep)
    while entries and _launcher_entry(Path(entries[0]), root, install):
        entries.pop(0)
    return os.pathsep.join(entries)


def _launcher_entry(entry: Path, root: Path, install: Path) -> bool:
    if entry in (install / "libexec", root / "libexec"):
        return True
    for base, middle in ((root, "versions"), (root, "plugins"), (install, "plugins")):
        parts = entry.parts
        size = len(base.parts)
        if (
            parts[:size] == base.parts
            and parts[size : size + 1] == (middle,)
            and entry.name == "bin"
        ):
            return True
    return False


def workspace_venv(root: Path) -> Path | None:
    """The workspace's own virtualenv (`.venv`, else `venv`), if it has a `bin` folder."""
    for name in VENV_NAMES:
        folder = root / name
        if (folder / "pyvenv.cfg").is_file() and (folder / "bin").is_dir():
            return folder
    return None


def command_environment(base: Mapping[str, str], root: Path) -> dict[str, str]:
    """The environment every command starts from, sandboxed or not.

    Credentials scrubbed, the launcher's variables gone, and the workspace venv activated (its
    `bin` first on `PATH`, `VIRTUAL_ENV` set, `PYTHONHOME` dropped, as `activate` does).
    """
    env = without_launcher(scrub_environment(base))
    venv = workspace_venv(root)
    if venv is not None:
        bin_dir = str(venv / "bin")
        rest = [p for p in env.get("PATH", "").split(os.pathsep) if p and p != bin_dir]
        env["PATH"] = os.pathsep.join([bin_dir, *rest])
        env["VIRTUAL_ENV"] = str(venv)
        env.pop("PYTHONHOME", None)
    return env


def readable_folders(environ: Mapping[str, str], root: Path, home: Path) -> list[Path]:
    """Folders outside the workspace that commands need to read: toolchains, environments."""
    env = without_launcher(environ)
    found = [home / name for name in TOOLCHAIN_DIRS]
    found += _path_folders(env.get("PATH", ""))
    found += [Path(env[name]) for name in ENVIRONMENT_VARIABLES if env.get(name)]
    found += _conda_bases(env)
    found += [Path(env[name]) for name in ("PYENV_ROOT", "NVM_DIR", "WORKON_HOME") if env.get(name)]
    found += _poetry_dirs(env, home)
    found += [home / name for name in HOME_ENVIRONMENT_DIRS]
    found += [root / name for name in VENV_NAMES]
    found += _venv_bases(found, home)
    return [p for p in _existing(found) if mountable(p, root, home)]


def _path_folders(path: str) -> list[Path]:
    """The folders on PATH, and the environment around a `bin` that belongs to one (a venv or
    a conda prefix put on PATH without `VIRTUAL_ENV`: its `lib` is needed too)."""
    found: list[Path] = []
    for entry in path.split(os.pathsep):
        if not entry:
            continue
        folder = Path(entry)
        found.append(folder)
        parent = folder.parent
        if folder.name == "bin" and any((parent / m).exists() for m in ENV_MARKERS):
            found.append(parent)
    return found


def _conda_bases(env: Mapping[str, str]) -> list[Path]:
    """conda's base install (from `CONDA_EXE`), and the stacked prefixes `CONDA_PREFIX_1`..."""
    bases = [Path(v) for k, v in env.items() if k.startswith("CONDA_PREFIX_") and v]
    exe = env.get("CONDA_EXE") or env.get("MAMBA_EXE")
    if exe:
        bases.append(Path(exe).parent.parent)
    return bases


def _poetry_dirs(env: Mapping[str, str], home: Path) -> list[Path]:
    found: list[Path] = []
    if env.get("POETRY_VIRTUALENVS_PATH"):
        found.append(Path(env["POETRY_VIRTUALENVS_PATH"]))
    if env.get("POETRY_CACHE_DIR"):
        found.append(Path(env["POETRY_CACHE_DIR"]) / "virtualenvs")
    if env.get("XDG_CACHE_HOME"):
        found.append(Path(env["XDG_CACHE_HOME"]) / "pypoetry" / "virtualenvs")
    return found


def _venv_bases(folders: Iterable[Path], home: Path) -> list[Path]:
    """The base interpreters of the virtualenvs among `folders` and their children."""
    bases: list[Path] = []
    for folder in folders:
        for venv in (folder, folder.parent, *_children(folder)):
            base = venv_base(venv)
            if base is not None and base != home:
                bases.append(base)
    return bases


def _children(folder: Path) -> list[Path]:
    """Environments kept inside a manager's folder: Poetry's and pipenv's `virtualenvs`,
    virtualenvwrapper's `.virtualenvs`, conda's `envs`, pyenv's `versions` (where
    `pyenv virtualenv` makes venvs)."""
    if folder.name in ("virtualenvs", ".virtualenvs", "envs"):
        parent = folder
    elif (folder / "versions").is_dir():
        parent = folder / "versions"
    elif (folder / "envs").is_dir():
        parent = folder / "envs"
    else:
        return []
    try:
        return [child for child in parent.iterdir() if child.is_dir()][:MAX_CHILDREN]
    except OSError:
        return []


def venv_base(venv: Path) -> Path | None:
    """The prefix of the interpreter a virtualenv was made from (`home = .../bin`)."""
    try:
        lines = (venv / "pyvenv.cfg").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    for line in lines:
        key, _, value = line.partition("=")
        if key.strip() == "home" and value.strip():
            bindir = Path(value.strip()).resolve()
            prefix = bindir.parent if bindir.name == "bin" else bindir
            return prefix if prefix.is_dir() else None
    return None


def _existing(paths: Iterable[Path]) -> list[Path]:
    result: list[Path] = []
    for path in paths:
        if not path.is_absolute():
            continue  # `.` or `bin` on PATH: relative to wherever the command is
        try:
            if not path.is_dir():
                continue
            real = path.resolve()
        except (OSError, RuntimeError):
            continue
        result.append(Path(os.path.normpath(path)))
        if real != result[-1]:
            result.append(real)  # a symlinked folder: its target is where the files are
    return result


def mountable(path: Path, root: Path, home: Path) -> bool:
    """Whether `path` may be opened read-only in the sandbox without exposing secrets."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        return False
    for candidate in {path, real}:
        if candidate == Path("/") or home.is_relative_to(candidate):
            return False  # `/`, home or above: everything would show
        if candidate.is_relative_to(root) or root.is_relative_to(candidate):
            return False  # the workspace is mounted with its masks; never over or around them
        secrets = [home / name for name in SECRET_HOME_DIRS]
        if any(candidate.is_relative_to(s) or s.is_relative_to(candidate) for s in secrets):
            return False
    return True
