"""The extension's own checks, run with the rest of the suite: eslint + tsc, and its unit
tests (`node --test`, the pure logic: stream rendering, run state, server discovery, settings,
command arguments, the save handler)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.vscode.rig import EXTENSION_DIR, unavailable

pytestmark = pytest.mark.slow


def npm(script: str) -> subprocess.CompletedProcess[str]:
    npm_bin = shutil.which("npm")
    if npm_bin is None:
        unavailable("npm is not installed")
    if not (EXTENSION_DIR / "node_modules").is_dir():
        unavailable("the extension's npm dependencies are not installed")
    return subprocess.run(
        [npm_bin, "run", "--silent", script],
        cwd=EXTENSION_DIR,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_lint_and_type_check() -> None:
    result = npm("lint")
    assert result.returncode == 0, result.stdout + result.stderr


def test_unit_tests() -> None:
    result = npm("test")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "# fail 0" in output
    passed = int(output.split("# pass ")[1].split()[0])
    assert passed >= 40, output
