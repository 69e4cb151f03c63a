"""Where the real-editor rig lives: code-server, the packaged extension, Chromium.

`editors/vscode/scripts/setup-test.sh` builds all of it (`./dev test` runs that script first).
A missing piece skips the VS Code tests with the command that fixes it, except under
`KESI_CI=1`, where a missing rig is a failure: CI must never go green without the editor.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

REPO = Path(__file__).resolve().parents[2]
EXTENSION_DIR = REPO / "editors" / "vscode"
SETUP = EXTENSION_DIR / "scripts" / "setup-test.sh"
VSIX = EXTENSION_DIR / "kesi-vscode.vsix"
CHROMIUM = Path("/usr/bin/chromium")


@dataclass(frozen=True)
class Rig:
    code_server: Path  # the npm package directory (out/node/entry.js inside)
    vsix: Path
    chromium: Path
    node: str

    @property
    def entry(self) -> Path:
        return self.code_server / "out" / "node" / "entry.js"


def unavailable(reason: str) -> NoReturn:
    """Skip (or fail under KESI_CI=1) because the rig is not there."""
    message = f"{reason}; run {SETUP.relative_to(REPO)}"
    if os.environ.get("KESI_CI") == "1":
        pytest.fail(f"VS Code rig missing under KESI_CI=1: {message}", pytrace=False)
    pytest.skip(message)


def find_rig() -> Rig:
    node = shutil.which("node")
    if node is None:
        unavailable("node is not installed")
    printed = subprocess.run(
        [str(SETUP), "--print"], capture_output=True, text=True, check=False, timeout=60
    )
    if printed.returncode != 0:
        unavailable(f"the rig script failed: {printed.stderr.strip()}")
    code_server = Path(printed.stdout.strip())
    # The script marks a finished build; a half-built cache is as good as none.
    if not (code_server.parent.parent / ".complete").is_file():
        unavailable(f"code-server is not built at {code_server}")
    if not VSIX.is_file():
        unavailable(f"{VSIX.relative_to(REPO)} is not packaged")
    if not CHROMIUM.is_file():
        unavailable("Debian's chromium is not installed")
    return Rig(code_server=code_server, vsix=VSIX, chromium=CHROMIUM, node=node)
