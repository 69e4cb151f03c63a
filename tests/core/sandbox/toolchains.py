"""Real-world Python and Node set-ups, built on disk for the sandbox tests (design §3).

Each helper makes what the tool itself would have made, with the pieces this machine has:
virtualenvs by `python -m venv` with pytest copied in (as `pip install` would put it), pyenv
from this machine's own pyenv scripts (`libexec`, shims made by `pyenv rehash`), an nvm-style
tree whose `node` is this machine's node binary.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PYTEST_DISTRIBUTIONS = ("pytest", "pluggy", "iniconfig", "packaging", "pygments")
PYENV_SOURCES = ("libexec", "pyenv.d", "bin")


def base_python() -> str:
    return getattr(sys, "_base_executable", sys.executable)


def make_venv(folder: Path) -> Path:
    """A virtualenv at `folder` with pytest in its site-packages; returns its `bin`."""
    subprocess.run([base_python(), "-m", "venv", "--without-pip", str(folder)], check=True)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = folder / "lib" / version / "site-packages"
    for name in PYTEST_DISTRIBUTIONS:
        dist = importlib.metadata.distribution(name)
        for file in dist.files or []:
            source = Path(str(dist.locate_file(file)))
            if ".." in file.parts or source.suffix == ".pyc" or not source.is_file():
                continue
            target = site / file
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)
    return folder / "bin"


def make_project(root: Path) -> None:
    """A project with one passing test (pytest finds it from the workspace)."""
    (root / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (root / "test_calc.py").write_text(
        "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
    )


def real_pyenv_root() -> Path:
    """This machine's pyenv (its scripts are copied, never used in place), else a skip."""
    found = shutil.which("pyenv")
    candidates = [Path(found).resolve().parent.parent] if found else []
    candidates.append(Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")))
    for root in candidates:
        if (root / "libexec" / "pyenv-exec").is_file():
            return root
    pytest.skip("these tests copy pyenv's own scripts; pyenv is not installed here")
    raise AssertionError  # unreachable


def make_pyenv(root: Path, version: str) -> Path:
    """A pyenv root at `root` with one version (a venv holding pytest) and its shims."""
    real = real_pyenv_root()
    for name in PYENV_SOURCES:
        if (real / name).is_dir():
            shutil.copytree(real / name, root / name, symlinks=True)
    make_venv(root / "versions" / version)
    env = {"PATH": f"{root / 'bin'}:/usr/bin:/bin", "PYENV_ROOT": str(root), "HOME": str(root)}
    subprocess.run(
        [str(root / "libexec" / "pyenv"), "rehash"], env=env, check=True, capture_output=True
    )
    assert (root / "shims" / "python").is_file()
    return root / "shims"


def make_nvm_node(nvm_dir: Path, version: str) -> Path:
    """nvm's layout: `$NVM_DIR/versions/node/vX/bin/node` (this machine's node)."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed here")
    bin_dir = nvm_dir / "versions" / "node" / version / "bin"
    bin_dir.mkdir(parents=True)
    (nvm_dir / "nvm.sh").write_text("# nvm\n")
    try:
        os.link(Path(node).resolve(), bin_dir / "node")
    except OSError:
        (bin_dir / "node").symlink_to(Path(node).resolve())
    return bin_dir
