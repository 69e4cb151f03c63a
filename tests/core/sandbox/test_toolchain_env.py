"""What a command's environment holds and which folders stay readable (pure parts, no bwrap)."""

from __future__ import annotations

import datetime
from pathlib import Path

from kesi_lsp.core.prompt import PromptEnvironment, environment_block
from kesi_lsp.core.sandbox.selection import SandboxState
from kesi_lsp.core.sandbox.toolchain import (
    command_environment,
    readable_folders,
    without_launcher,
    workspace_venv,
)

PYENV = "/home/u/.pyenv"


def launched_by_pyenv() -> dict[str, str]:
    """What `pyenv exec` hands to kesi-lsp when its shim started the server from ~/Desktop."""
    return {
        "HOME": "/home/u",
        "PYENV_ROOT": PYENV,
        "PYENV_DIR": "/home/u/Desktop",
        "PYENV_VERSION": "3.12.1",
        "_PYENV_INSTALL_PREFIX": PYENV,
        "_PYENV_SHIM_PATHS_kesi_lsp": f"{PYENV}/shims",
        "PYENV_HOOK_PATH": f"{PYENV}/pyenv.d",
        "PATH": f"{PYENV}/versions/3.12.1/bin:{PYENV}/libexec:{PYENV}/plugins/python-build/bin:"
        f"{PYENV}/shims:/usr/bin:/bin",
    }


def test_the_launchers_variables_are_not_passed_on() -> None:
    env = without_launcher(launched_by_pyenv())
    assert "PYENV_DIR" not in env and "PYENV_VERSION" not in env
    assert not any(name.startswith("_PYENV") for name in env)
    assert env["PATH"] == f"{PYENV}/shims:/usr/bin:/bin"  # the user's own PATH again
    assert env["PYENV_ROOT"] == PYENV  # the shims need it


def test_a_pyenv_version_the_user_chose_in_a_shell_is_kept() -> None:
    """`pyenv shell 3.11` exports PYENV_VERSION but no PYENV_DIR: the user's choice stays."""
    env = {"PYENV_VERSION": "3.11.7", "PATH": f"{PYENV}/versions/3.11.7/bin:/usr/bin"}
    assert without_launcher(env) == env


def make_venv(folder: Path, home: str = "/usr/bin") -> Path:
    (folder / "bin").mkdir(parents=True)
    (folder / "pyvenv.cfg").write_text(f"home = {home}\n")
    return folder


def test_the_workspace_venv_comes_first_and_is_the_active_one(tmp_path: Path) -> None:
    venv = make_venv(tmp_path / ".venv")
    base = {"PATH": "/other/venv/bin:/usr/bin", "VIRTUAL_ENV": "/other/venv", "PYTHONHOME": "/x"}
    env = command_environment({**base, "GITHUB_TOKEN": "t"}, tmp_path)
    assert env["PATH"].split(":")[0] == str(venv / "bin")
    assert env["VIRTUAL_ENV"] == str(venv)
    assert "PYTHONHOME" not in env and "GITHUB_TOKEN" not in env
    assert workspace_venv(tmp_path) == venv


def test_venv_is_taken_when_there_is_no_dot_venv(tmp_path: Path) -> None:
    venv = make_venv(tmp_path / "venv")
    assert workspace_venv(tmp_path) == venv
    (tmp_path / ".venv").mkdir()  # not a virtualenv: no pyvenv.cfg
    assert workspace_venv(tmp_path) == venv


def test_no_venv_leaves_path_alone(tmp_path: Path) -> None:
    env = command_environment({"PATH": "/usr/bin"}, tmp_path)
    assert env == {"PATH": "/usr/bin"}


def test_readable_folders_cover_the_active_environment(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = home / "work" / "proj"
    root.mkdir(parents=True)
    base = make_venv(tmp_path / "opt" / "python3.12", home="/usr/bin")
    poetry = make_venv(home / ".cache/pypoetry/virtualenvs/proj-x-py3.12", home=str(base / "bin"))
    conda = tmp_path / "conda"
    (conda / "envs" / "work" / "conda-meta").mkdir(parents=True)
    (conda / "bin").mkdir()
    bare = tmp_path / "bare-env"
    (bare / "bin").mkdir(parents=True)
    (bare / "conda-meta").mkdir()
    environ = {
        "PATH": f"{bare / 'bin'}:/usr/bin",
        "CONDA_PREFIX": str(conda / "envs" / "work"),
        "CONDA_EXE": str(conda / "bin" / "conda"),
    }
    found = readable_folders(environ, root, home)
    assert poetry.parent in found  # Poetry's folder under home, with its venvs
    assert base in found  # the interpreter a venv was made from
    assert conda / "envs" / "work" in found and conda in found
    assert bare in found  # a prefix whose bin is on PATH: its lib too


def test_no_folder_opens_home_the_workspace_or_credentials(tmp_path: Path) -> None:
    home = tmp_path / "home"
    root = home / "work" / "proj"
    for folder in (root / "node_modules" / ".bin", home / ".ssh", home / "bin", home / ".aws"):
        folder.mkdir(parents=True)
    (home / "link-to-ssh").symlink_to(home / ".ssh")
    path = [home, tmp_path, "/", home / ".ssh", home / "link-to-ssh", root / "node_modules/.bin"]
    environ = {"PATH": ":".join(map(str, [*path, home / "bin", "relative/bin"]))}
    found = readable_folders(environ, root, home)
    assert home / "bin" in found
    for refused in (home, tmp_path, Path("/"), home / ".ssh", home / "link-to-ssh"):
        assert refused not in found
    assert not any(p.is_relative_to(root) for p in found)
    assert not any(p.is_relative_to(home / ".ssh") for p in found)


def test_the_prompt_names_the_venv_commands_run_with() -> None:
    env = PromptEnvironment(
        today=datetime.date(2026, 1, 1),
        root=Path("/w"),
        os_name="Linux",
        sandbox=SandboxState("bubblewrap", "on", program="/usr/bin/bwrap"),
        venv=".venv",
    )
    assert "virtualenv .venv activated" in environment_block(env, "en")
    assert "虛擬環境 .venv" in environment_block(env, "zh-TW")
    bare = PromptEnvironment(
        today=datetime.date(2026, 1, 1), root=Path("/w"), os_name="Linux", sandbox=env.sandbox
    )
    assert "virtualenv .venv activated" not in environment_block(bare, "en")


def test_a_packaged_pyenv_launcher_is_undone_too() -> None:
    """pyenv from a package (/usr/share/pyenv) with its versions under ~/.pyenv."""
    env = {
        "PYENV_ROOT": "/home/u/.pyenv",
        "PYENV_DIR": "/home/u",
        "PYENV_VERSION": "3.12.1",
        "_PYENV_INSTALL_PREFIX": "/usr/share/pyenv",
        "PATH": "/home/u/.pyenv/versions/3.12.1/bin:/usr/share/pyenv/libexec:"
        "/usr/share/pyenv/plugins/python-build/bin:/home/u/.pyenv/shims:/usr/bin",
    }
    assert without_launcher(env)["PATH"] == "/home/u/.pyenv/shims:/usr/bin"
