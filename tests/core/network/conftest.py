"""The sandbox playground and the bubblewrap fixture, shared with the sandbox's own tests, and
the pages an allowed test host serves."""

from pathlib import Path

import pytest

from tests.core.sandbox.conftest import bwrap, playground

__all__ = ["bwrap", "playground"]


@pytest.fixture
def pages(tmp_path: Path) -> Path:
    folder = tmp_path / "pages"
    folder.mkdir()
    (folder / "hello.txt").write_text("hello from the allowed host\n")
    return folder
