"""A user whose kesi-lsp comes from a pyenv Python sees their tests go green in VS Code.

The issue-16 set-up, end to end in code-server: `kesi-lsp` is installed into a pyenv version,
pyenv is set up the way its instructions say (`~/.profile` puts the shims on `PATH`), and the
extension starts pyenv's shim (`kesi.serverPath` is what `which kesi-lsp` answers), so the
server runs through `pyenv exec` with its launcher variables. The agent's
`python -m pytest` goes through the same shims inside the bubblewrap sandbox, pyenv's root
and the version's base interpreter must be readable there, `~/.ssh` must not be (a test in the
project checks), and the user's permission rule lets the tests run without a prompt.

code-server starts the extension host in the workspace folder, so `PYENV_DIR` is visible here;
the hidden-`PYENV_DIR` and `PYENV_VERSION` regressions are pinned with real bwrap in
tests/core/sandbox/test_bubblewrap_toolchains.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.sandbox.toolchains import make_project, make_pyenv
from tests.story import words
from tests.vscode.session import OpenVSCode

pytestmark = [pytest.mark.editor, pytest.mark.slow, pytest.mark.timeout(240)]

VERSION = "3.11-kesi"
COMMAND = "python -m pytest -q -p no:cacheprovider"
COMMAND_RULE = "python -m pytest*"
# Idle after the run, with the server's verdict: pytest passed, so the run is verified.
IDLE_VERIFIED = re.compile(r"^KeSi · verified \$(\d+\.\d{4})$")
CONSOLE_SCRIPT = """#!{python}
import sys
from kesi_lsp.cli import main
sys.exit(main())
"""


def install_kesi_lsp(version_dir: Path) -> None:
    """`pip install kesi-lsp` into the pyenv version, as far as the server needs: this
    checkout's environment on the version's path, and the `kesi-lsp` console script."""
    site = next((version_dir / "lib").glob("python3*/site-packages"))
    ours = next(p for p in map(Path, sys.path) if p.name == "site-packages" and p.is_dir())
    (site / "kesi-lsp-test.pth").write_text(f"import site; site.addsitedir({str(ours)!r})\n")
    script_path = version_dir / "bin" / "kesi-lsp"
    script_path.write_text(CONSOLE_SCRIPT.format(python=version_dir / "bin" / "python"))
    script_path.chmod(0o755)


def test_pytest_goes_green_with_a_server_started_through_pyenvs_shim(
    vscode: OpenVSCode, scripted_api, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    root = home / ".pyenv"
    make_pyenv(root, VERSION)  # the version, its pytest, and `pyenv rehash`'s shims
    install_kesi_lsp(root / "versions" / VERSION)
    shims = make_pyenv_rehash(root)
    (root / "version").write_text(VERSION + "\n")  # `pyenv global`
    # pyenv's install instructions: these lines in ~/.profile. code-server gives the extension
    # host the login shell's environment, so this is the PATH the server (and KeSi) sees.
    (home / ".profile").write_text(f'export PYENV_ROOT="{root}"\nexport PATH="{shims}:$PATH"\n')
    (home / ".ssh").mkdir()
    (home / ".ssh" / "id_ed25519").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\n")
    project = tmp_path / "project"
    project.mkdir()
    make_project(project)
    (project / ".python-version").write_text(VERSION + "\n")
    (project / "test_secrets.py").write_text(
        "import pathlib\n\n\ndef test_home_secrets_are_hidden():\n"
        "    assert not pathlib.Path.home().joinpath('.ssh', 'id_ed25519').exists()\n"
    )
    api = scripted_api(
        script(
            reply("Running the tests.", tool_use("run_command", {"command": COMMAND})),
            reply("All green.", expect={"last_tool_result_contains": "2 passed"}),
        )
    )
    shim = shims / "kesi-lsp"  # what `which kesi-lsp` answers in the user's shell
    session = vscode(
        project,
        api_url=api.base_url,
        settings={"kesi.serverPath": str(shim), "kesi.permissions": {"allow": [COMMAND_RULE]}},
        env={"HOME": str(home), "SHELL": "/bin/sh", "VIRTUAL_ENV": ""},
    )
    wb = session.workbench
    assert f"starting {shim} (found via setting)" in session.server_log()
    wb.run_command("KeSi: Ask")
    wb.type_into_input_box("run the tests")
    wb.wait_until(lambda: "All green." in session.output_channel(), 90_000, "the run to end")
    wb.wait_until(
        lambda: IDLE_VERIFIED.match(wb.status_text()) is not None, 30_000, "the verdict and cost"
    )
    channel = session.output_channel()
    assert "2 passed" in channel and "All green." in channel, channel
    assert words.verdict(f"{COMMAND} passed") in channel, channel
    assert not any("python -m pytest" in text for text in wb.notification_texts()), (
        "the permission rule lets the tests run without a prompt"
    )
    wb.run_command("KeSi: Show Permissions")
    listing = wb.notification("Permission rules").inner_text()
    assert f"allow {COMMAND_RULE} (initialization options)" in listing


def make_pyenv_rehash(root: Path) -> Path:
    """Run `pyenv rehash` again now that the version has `kesi-lsp`; return the shims."""
    env = {"PATH": f"{root / 'bin'}:/usr/bin:/bin", "PYENV_ROOT": str(root), "HOME": str(root)}
    subprocess.run([str(root / "libexec" / "pyenv"), "rehash"], env=env, check=True)
    assert (root / "shims" / "kesi-lsp").is_file()
    return root / "shims"
