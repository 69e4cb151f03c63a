"""The user's real toolchain runs inside the real sandbox; their secrets stay out (design §3).

Each test builds a set-up a large share of users have (pyenv started through its shim, a
Poetry venv under home, a conda prefix, nvm's Node, the project's own `.venv`), runs the
command a user would expect to work, and checks that `~/.ssh` is still unreadable.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core.sandbox.hidden import explain
from tests.core.sandbox.conftest import Playground, Ran, bubblewrap
from tests.core.sandbox.toolchains import make_nvm_node, make_project, make_pyenv, make_venv

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox, pytest.mark.slow]  # toolchains

PYTEST = "python -m pytest -q -p no:cacheprovider"
READ_SECRET = "cat ~/.ssh/id_ed25519; ls ~/.ssh"


def with_env(playground: Playground, **changes: str) -> Playground:
    return Playground(
        playground.home, playground.root, playground.outside, {**playground.environ, **changes}
    )


async def assert_secrets_hidden(playground: Playground) -> None:
    ran = await playground.run(bubblewrap(playground), READ_SECRET)
    assert ran.code != 0
    assert "PRIVATE KEY" not in ran.output and "id_ed25519\n" not in ran.output, ran.output


def passed(ran: Ran) -> bool:
    return ran.code == 0 and "1 passed" in ran.output


async def test_python_through_a_pyenv_shim_that_started_the_server(playground: Playground) -> None:
    """pyenv's shim started kesi-lsp: PYENV_DIR is the editor's start folder (hidden inside),
    PYENV_VERSION and the version's bin were put first by `pyenv exec`. The project's own
    `.python-version` must rule, and python must start."""
    pyenv = playground.home / ".pyenv"
    shims = make_pyenv(pyenv, "3.11-kesi")
    launch = playground.home / "Desktop"  # where the editor was started: not the workspace
    launch.mkdir()
    make_project(playground.root)
    (playground.root / ".python-version").write_text("3.11-kesi\n")
    launched = with_env(
        playground,
        PYENV_ROOT=str(pyenv),
        PYENV_DIR=str(launch),
        PYENV_VERSION="system",  # what the server was started with: no pytest there
        PYENV_HOOK_PATH=str(pyenv / "pyenv.d"),
        PATH=f"{pyenv / 'libexec'}:{shims}:/usr/local/bin:/usr/bin:/bin",
    )
    which = "python -c 'import sys; print(sys.prefix)'"
    ran = await launched.run(bubblewrap(launched), f"{PYTEST} && {which}", seconds=120)
    assert passed(ran), ran.output
    assert "cannot change working directory" not in ran.output
    assert ran.output.strip().endswith("/versions/3.11-kesi")
    await assert_secrets_hidden(launched)


async def test_a_poetry_venv_under_home(playground: Playground) -> None:
    venv = playground.home / ".cache" / "pypoetry" / "virtualenvs" / "proj-AbCd1234-py3.11"
    bin_dir = make_venv(venv)
    make_project(playground.root)
    active = with_env(
        playground, VIRTUAL_ENV=str(venv), PATH=f"{bin_dir}:{playground.environ['PATH']}"
    )
    ran = await active.run(bubblewrap(active), PYTEST, seconds=120)
    assert passed(ran), ran.output
    # Not activated, run by path (as `poetry run` resolves it): the folder is readable too.
    ran = await playground.run(bubblewrap(playground), f"{bin_dir}/{PYTEST}", seconds=120)
    assert passed(ran), ran.output
    planted = await active.run(bubblewrap(active), f"touch {venv}/lib/planted.pth")
    assert planted.code != 0 and not (venv / "lib" / "planted.pth").exists()
    await assert_secrets_hidden(active)


async def test_a_conda_style_prefix_outside_home(playground: Playground, tmp_path: Path) -> None:
    base = tmp_path / "opt" / "miniforge3"
    prefix = base / "envs" / "work"
    bin_dir = make_venv(prefix)
    (prefix / "conda-meta").mkdir()
    (prefix / "conda-meta" / "history").write_text("==> 2026-01-01 <==\n")
    (base / "bin").mkdir(parents=True)
    (base / "bin" / "conda").write_text("#!/bin/sh\n")
    make_project(playground.root)
    active = with_env(
        playground,
        CONDA_PREFIX=str(prefix),
        CONDA_EXE=str(base / "bin" / "conda"),
        CONDA_DEFAULT_ENV="work",
        PATH=f"{bin_dir}:{playground.environ['PATH']}",
    )
    ran = await active.run(
        bubblewrap(active), f"{PYTEST} && echo prefix=$CONDA_PREFIX", seconds=120
    )
    assert passed(ran), ran.output
    assert f"prefix={prefix}" in ran.output
    await assert_secrets_hidden(active)


async def test_node_from_nvm_under_xdg_config(playground: Playground) -> None:
    nvm = playground.home / ".config" / "nvm"  # nvm's install script honours XDG_CONFIG_HOME
    bin_dir = make_nvm_node(nvm, "v20.11.1")
    active = with_env(playground, NVM_DIR=str(nvm), PATH=f"{bin_dir}:/usr/bin:/bin")
    ran = await active.run(bubblewrap(active), "command -v node && node --version")
    assert ran.code == 0, ran.output
    assert str(bin_dir / "node") in ran.output and ran.output.strip().splitlines()[-1][0] == "v"
    ran = await active.run(bubblewrap(active), "ls ~/.config; cat ~/.config/gh/hosts.yml")
    assert "nvm" in ran.output and "oauth" not in ran.output
    await assert_secrets_hidden(active)


async def test_the_workspace_venv_comes_first_for_plain_python(playground: Playground) -> None:
    make_venv(playground.root / ".venv")
    make_project(playground.root)
    ran = await playground.run(
        bubblewrap(playground), f"{PYTEST} && echo venv=$VIRTUAL_ENV", seconds=120
    )
    assert passed(ran), ran.output
    assert f"venv={playground.root / '.venv'}" in ran.output


async def test_a_folder_on_path_is_readable_and_never_writable(playground: Playground) -> None:
    tools = playground.home / "bin"
    tools.mkdir()
    (tools / "hello").write_text("#!/bin/sh\necho hello from my tools\n")
    (tools / "hello").chmod(0o755)
    active = with_env(playground, PATH=f"{tools}:{playground.environ['PATH']}")
    ran = await active.run(bubblewrap(active), "hello && touch ~/bin/planted")
    assert ran.output.startswith("hello from my tools\n"), ran.output
    assert ran.code != 0 and not (tools / "planted").exists()


async def test_the_result_says_when_the_sandbox_hid_what_a_command_reached_for(
    playground: Playground,
) -> None:
    """The raw error would read as "missing"; run_command adds the sandbox's note."""
    launch = playground.home / "Desktop"
    launch.mkdir()
    box = bubblewrap(playground)
    ran = await playground.run(box, f"cd {launch} && ls; cat .env; cat {playground.home}/nope")
    notes = explain(box, ran.output, playground.root, "en")
    assert any(str(launch) in note and "hidden" in note for note in notes), (ran.output, notes)
    assert any(".env" in note and "secrets" in note for note in notes)
    assert not any("nope" in note for note in notes)  # really missing: no note
