"""Shared test set-up. Domain-specific fixtures live in each test folder's own conftest.

`./dev test` runs the suite on every core with pytest-xdist (`--dist loadgroup`). A few kinds
of test must not run beside one of their own kind, so each kind is a lane that one worker runs
in order, while the other workers share everything else:

- `vscode`: code-server and Chromium are the heaviest things the suite starts; two at once on
  a 2-core machine turn a 30 s wait into a timeout;
- `nvim`, `emacs`: the same for headless Neovim, and for Emacs in tmux, with their language
  servers;
- `bench`: the smoke benchmarks measure time. `./dev test` runs them after everything else,
  in a pytest of their own; when they are picked with other tests they still run alone: while
  one runs, the other workers wait before their next test (a file lock, below), so a benchmark
  measures KeSi and not the rest of the suite.

xdist hands out the lanes with the most tests first, so the long editor suites start at once
instead of being what the run waits for at its end. (The lanes are chosen by path in the
scheduler: xdist 3.8's `xdist_group` marker renames node ids, which pytest 9 no longer lets it
do.)
"""

from __future__ import annotations

import fcntl
import gc
import os
import shutil
import tempfile
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests import budget, processes

pytest_plugins = ["tests.plugins.scripted_api"]

# Property tests judge what the code does, never how fast a shared machine makes their
# examples: a CI host with both cores busy made `too_slow` fail test_mapping's data generation
# (the examples were fine). A test that names its own health checks adds `too_slow` itself.
settings.register_profile("kesi", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("kesi")

# Every language server a test starts (directly, or through a real editor) saves each folder's
# conversation in the user's state directory (resume): here a private one per test process,
# never the real home's, removed when the tests end.
_STATE = tempfile.mkdtemp(prefix="kesi-test-state-")
os.environ["XDG_STATE_HOME"] = _STATE


def pytest_configure() -> None:
    """No garbage collection while the suite is imported.

    Collecting imports every test module and what it imports (the model SDK's thousands of
    pydantic classes among them): the collector ran hundreds of full passes over a heap that
    only grows, 40 % of each worker's collection time. Nothing collected then is garbage.
    """
    gc.disable()


def pytest_collection_finish() -> None:
    """The imported suite moves out of the collector's sight, and collection resumes."""
    gc.freeze()
    gc.enable()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`./dev test --fast` runs per-preset tests on a taste of the presets (`tests.budget`)."""
    left = budget.beyond_the_taste(items)
    if left:
        dropped = set(map(id, left))
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if id(item) not in dropped]


def pytest_unconfigure() -> None:
    shutil.rmtree(_STATE, ignore_errors=True)


LANES = {
    "vscode": ("tests/vscode/",),
    "nvim": ("tests/nvim/",),
    "emacs": ("tests/emacs/",),
    "bench": ("tests/bench/test_smoke.py",),
}


def lane(nodeid: str) -> str | None:
    """The lane a test runs in (None: any worker)."""
    return next((name for name, paths in LANES.items() if nodeid.startswith(paths)), None)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Under `--dist loadgroup`, xdist's group scheduling with `LANES` as the groups."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadGroupScheduling

    class Lanes(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return lane(nodeid) or super()._split_scope(nodeid)

    return Lanes(config, log)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The running test's marks, for `tests.processes.may_start_our_process`."""
    processes.running_marks = frozenset(mark.name for mark in item.iter_markers())


ALONE = ("tests/bench/test_smoke.py",)


@pytest.hookimpl(wrapper=True, tryfirst=True)  # outside pytest-timeout: waiting is not running
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Under xdist, a test in `ALONE` runs with no other test running; the others wait for it.

    Every test holds a shared lock on a file the workers share while it runs; a test that
    must run alone raises a flag, then takes the lock exclusively, which waits for the tests
    running elsewhere to end. The others see the flag and wait before starting the next one.
    """
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # the same in every worker of one run
    if run is None:
        return (yield)
    shared = Path(tempfile.gettempdir()) / f"kesi-xdist-{run}"
    shared.mkdir(exist_ok=True)
    flag = shared / "alone.wanted"
    with (shared / "alone.lock").open("a") as lock:
        if item.nodeid.startswith(ALONE):
            flag.touch()
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                return (yield)
            finally:
                flag.unlink(missing_ok=True)
                fcntl.flock(lock, fcntl.LOCK_UN)
        while flag.exists():  # a benchmark wants the machine, or has it
            time.sleep(0.05)
        fcntl.flock(lock, fcntl.LOCK_SH)
        try:
            return (yield)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
