"""What the killed-server tests share (tests/lsp/test_server_killed.py, tests/acp/...): the
bounds, a workspace folder of their own, and whether the bubblewrap case can run here."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kesi_lsp.core import select_sandbox
from kesi_lsp.core.errors import SandboxUnavailableError

GONE_SECONDS = 2.0
"""The issue's bound: after the server's SIGKILL, no process of its commands within this."""
STARTED_SECONDS = 120.0
"""A bound on the server, the SDK and the commands starting, on a loaded machine."""
MODES = ["bubblewrap", "off"]


def usable(mode: str, folder: Path) -> None:
    """Skip (fail under KESI_CI=1) when the bubblewrap case cannot run here."""
    if mode != "bubblewrap":
        return
    try:
        if shutil.which("bwrap") is None:
            raise SandboxUnavailableError("bwrap is not installed")
        select_sandbox("bubblewrap", folder, os.environ)
    except SandboxUnavailableError as exc:
        if os.environ.get("KESI_CI") == "1":
            pytest.fail(f"KESI_CI=1 requires a working bubblewrap: {exc}")
        pytest.skip(f"no working bubblewrap here: {exc}")


def folder(base: Path, name: str) -> Path:
    root = base / name
    root.mkdir()
    (root / "notes.txt").write_text("a folder of its own\n", encoding="utf-8")
    return root
