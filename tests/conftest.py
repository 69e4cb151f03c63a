"""Shared test set-up. Domain-specific fixtures live in each test folder's own conftest.

`./dev test` runs the suite on every core with pytest-xdist (`--dist loadgroup`). A few kinds
of test must not run beside one of their own kind, so each kind is a group that one worker
runs in order, while the other workers share everything else:

- `vscode`: code-server and Chromium are the heaviest things the suite starts; two at once on
  a 2-core machine turn a 30 s wait into a timeout;
- `nvim`: the same for headless Neovim with its language server;
- `bench`: the smoke benchmarks measure time, and two measuring at once measure each other.

xdist hands out the largest groups first, so the long editor suites start at once instead of
being the last thing the run waits for.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["tests.plugins.scripted_api"]

TESTS = Path(__file__).resolve().parent
GROUPS = {
    "vscode": lambda item: _under(item, "vscode") and item.get_closest_marker("editor"),
    "nvim": lambda item: _under(item, "nvim") and item.get_closest_marker("editor"),
    "bench": lambda item: item.path.name == "test_smoke.py" and _under(item, "bench"),
}


def _under(item: pytest.Item, folder: str) -> bool:
    return item.path.is_relative_to(TESTS / folder)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for group, belongs in GROUPS.items():
            if belongs(item):
                item.add_marker(pytest.mark.xdist_group(group))
