"""Shared test set-up. Domain-specific fixtures live in each test folder's own conftest."""

from __future__ import annotations

import os
import shutil
import tempfile

pytest_plugins = ["tests.plugins.scripted_api"]

# Every language server a test starts (directly, or through a real editor) saves each folder's
# conversation in the user's state directory (resume): here a private one per test process,
# never the real home's, removed when the tests end.
_STATE = tempfile.mkdtemp(prefix="kesi-test-state-")
os.environ["XDG_STATE_HOME"] = _STATE


def pytest_unconfigure() -> None:
    shutil.rmtree(_STATE, ignore_errors=True)
