"""What a developer's toolchain fetches, served from loopback: a PEP 503 package index with
one wheel (for `pip install`) and a git repository over git's plain-http protocol (for `git
clone`), both as folders for `servers.site` (no test reaches the internet)."""

from __future__ import annotations

import base64
import hashlib
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

PACKAGE = "kesi-probe"
MODULE = "kesi_probe"
VERSION = "1.0"
GREETING = "hello from the loopback index"
METADATA = f"Metadata-Version: 2.1\nName: {PACKAGE}\nVersion: {VERSION}\n"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def wheel(folder: Path) -> Path:
    """A pure-Python wheel whose module prints GREETING when run."""
    info = f"{MODULE}-{VERSION}.dist-info"
    files = {
        f"{MODULE}/__init__.py": f"GREETING = {GREETING!r}\n".encode(),
        f"{MODULE}/__main__.py": b"from kesi_probe import GREETING\nprint(GREETING)\n",
        f"{info}/METADATA": METADATA.encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: kesi-tests\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n",
    }
    record = [_record_line(name, data) for name, data in files.items()] + [f"{info}/RECORD,,"]
    path = folder / f"{MODULE}-{VERSION}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return path


def package_index(root: Path) -> Path:
    """`root/simple/kesi-probe/` listing the wheel (PEP 503); `root` is what to serve."""
    project = root / "simple" / PACKAGE
    project.mkdir(parents=True)
    built = wheel(project)
    (project / "index.html").write_text(f'<a href="{built.name}">{built.name}</a>\n')
    (root / "simple" / "index.html").write_text(f'<a href="{PACKAGE}/">{PACKAGE}</a>\n')
    return root


def git_repository(root: Path) -> Path:
    """`root/probe.git`, a bare repository with one commit of README.md, ready for git's
    plain-http protocol (`update-server-info`); `root` is what to serve."""
    git = shutil.which("git")
    if git is None:
        pytest.skip("git is not installed")
    work = root.parent / f"{root.name}-work"
    work.mkdir()
    root.mkdir()
    (work / "README.md").write_text("cloned through the proxy\n")

    def run(*args: str, cwd: Path) -> None:
        subprocess.run([git, *args], cwd=cwd, check=True, capture_output=True, timeout=60)

    run("init", "-q", "-b", "main", ".", cwd=work)
    run("add", "README.md", cwd=work)
    run("-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "one", cwd=work)
    run("clone", "-q", "--bare", str(work), str(root / "probe.git"), cwd=root)
    run("update-server-info", cwd=root / "probe.git")
    return root
