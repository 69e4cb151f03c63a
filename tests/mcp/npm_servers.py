"""The real npm MCP servers of the tests (`tests/mcp/node`: server-everything and
server-filesystem, pinned by its lock file): `./dev test` installs them (`npm ci`); a test run
without them installs them here the first time, and skips, saying why, only without npm."""

from __future__ import annotations

import fcntl
import shutil
import subprocess
from pathlib import Path

import pytest

NODE_DIR = Path(__file__).with_name("node")
MODULES = NODE_DIR / "node_modules" / "@modelcontextprotocol"
EVERYTHING = MODULES / "server-everything" / "dist" / "index.js"
FILESYSTEM = MODULES / "server-filesystem" / "dist" / "index.js"


def npm_servers() -> tuple[str, Path, Path]:
    """`node`, and the entry points of server-everything and server-filesystem; installed now
    (once, under a lock: several test workers may ask at once) if they are not yet."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("npm/node are not installed: the npm MCP servers cannot be installed")
    with (NODE_DIR / ".install.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (EVERYTHING.is_file() and FILESYSTEM.is_file()):
            done = subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund"],
                cwd=NODE_DIR,
                capture_output=True,
                text=True,
                timeout=600,
                check=False,
            )
            assert done.returncode == 0, f"npm ci in {NODE_DIR} failed:\n{done.stderr}"
    return node, EVERYTHING, FILESYSTEM
