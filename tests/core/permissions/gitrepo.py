"""Helpers for the permission tests that use real git repositories."""

from __future__ import annotations

import subprocess
from pathlib import Path


def git(root: Path, *args: str, stdin: str | None = None) -> str:
    """Run git in `root` with a throwaway identity; its standard output."""
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=root,
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def run(command: str, root: Path) -> str:
    """Run `command` as run_command would (`/bin/sh -c`); its output, both streams."""
    done = subprocess.run(
        ["/bin/sh", "-c", command], cwd=root, capture_output=True, text=True, timeout=60
    )
    return done.stdout + done.stderr
