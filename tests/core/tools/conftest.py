from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.workspace import Workspace, make_workspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return make_workspace(tmp_path)


@pytest.fixture
def zh(tmp_path: Path) -> Workspace:
    return make_workspace(tmp_path, locale="zh-TW")
