"""Fixtures for the real-Emacs tests: `emacs` and `tmux`, and an `open_emacs` factory."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path

import pytest

from tests.emacs.harness import Emacs, emacs_session, find_emacs, find_tmux


def require_tool(found: str | None, message: str, environ: Mapping[str, str]) -> str:
    """`found`, else a skip, except in CI (KESI_CI=1), where a missing editor is a failure."""
    if found is not None:
        return found
    if environ.get("KESI_CI") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def emacs_bin() -> str:
    """`emacs` (Debian's emacs-nox, with elpa-eglot: editors/emacs/scripts/apt-packages)."""
    return require_tool(
        find_emacs(),
        "emacs not found: run ./dev test as root on Debian (it installs emacs-nox and "
        "elpa-eglot), or apt-get install emacs-nox elpa-eglot",
        os.environ,
    )


@pytest.fixture(scope="session")
def tmux_bin() -> str:
    return require_tool(
        find_tmux(), "tmux not found: apt-get install tmux (the Emacs tests' terminal)", os.environ
    )


OpenEmacs = Callable[..., Emacs]


@pytest.fixture
def open_emacs(emacs_bin: str, tmux_bin: str, tmp_path: Path) -> Iterator[OpenEmacs]:
    """Return `open(project, file, env=None, setup="package")`: `emacs -nw` visiting `file`."""
    with ExitStack() as stack:
        count = 0

        def open_(
            project: Path,
            file: str,
            env: Mapping[str, str] | None = None,
            setup: str = "package",
        ) -> Emacs:
            nonlocal count
            count += 1
            home = tmp_path / f"emacs-home-{count}"
            home.mkdir()
            return stack.enter_context(
                emacs_session(emacs_bin, tmux_bin, project, home, file, env, setup)
            )

        yield open_
