"""Limits and cleanup: a fork bomb and a disk filler are stopped and said so; nothing lingers.

A fork bomb is run only where the kernel itself caps it: with a pids cgroup the guard can
make (a root host such as CI), or as an unprivileged user (RLIMIT_NPROC inside the sandbox's
user namespace). As root without a writable cgroup only the guard's count would stop it, after
it had already spread over the shared machine: that case is skipped, saying why.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shutil
import signal
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import SandboxKind, cgroups, guard, masks, tether
from kesi_lsp.core.sandbox.bubblewrap import BubblewrapSandbox, Limits
from tests.core.sandbox.conftest import (
    Playground,
    bubblewrap,
    fork_bomb,
    kill_group,
    make_playground,
    unique_seconds,
)
from tests.processes import gone, processes_with, running

pytestmark = [pytest.mark.usefixtures("bwrap"), pytest.mark.sandbox]

NOBODY = 65534
SYSTEM_PYTHON = "/usr/bin/python3"
CAN_BECOME_NOBODY = (
    os.geteuid() == 0 and shutil.which("setpriv") is not None and Path(SYSTEM_PYTHON).exists()
)


def kit_folders() -> set[str]:
    return {p.name for p in Path(tempfile.gettempdir()).glob("kesi-sandbox-*")}


async def test_a_fork_bomb_is_stopped_with_a_clear_result(playground: Playground) -> None:
    if os.geteuid() == 0 and not cgroups.controller_parents("pids"):
        pytest.skip("root without a writable pids cgroup: a fork bomb would not be capped")
    box = bubblewrap(playground, Limits(max_processes=64))
    bomb, name = fork_bomb()
    ran = await playground.run(box, bomb, seconds=60)
    assert ran.seconds < 20
    assert ran.code != 0
    stopped = "started more than 64 processes; all of them were stopped"
    refused = "reached the limit of 64 processes"  # the bomb collapsed before the guard looked
    assert stopped in ran.output or refused in ran.output, ran.output[-300:]
    assert processes_with(name) == []


@pytest.fixture
def open_base() -> Iterator[Path]:
    """A world-traversable folder (pytest's own temp root is private to its owner)."""
    base = Path(tempfile.mkdtemp(prefix="kesi-nobody-"))
    base.chmod(0o755)
    yield base
    shutil.rmtree(base, ignore_errors=True)


async def test_a_fork_bomb_of_an_unprivileged_user_is_capped_by_the_kernel(
    open_base: Path,
) -> None:
    if not CAN_BECOME_NOBODY:
        pytest.skip("needs root (to become another user), setpriv and /usr/bin/python3")
    playground = make_playground(open_base)
    for module in (guard, masks, cgroups, tether):  # the guard and the siblings it imports
        copy = open_base / Path(module.__file__ or "").name
        shutil.copyfile(module.__file__ or "", copy)
        copy.chmod(0o644)
    guard_copy = open_base / "guard.py"
    os.chown(playground.root, NOBODY, NOBODY)
    box = dataclasses.replace(
        bubblewrap(playground, Limits(max_processes=64, use_cgroup=False)),
        python=SYSTEM_PYTHON,
        guard=str(guard_copy),
    )
    as_nobody = _AsUser(box, NOBODY)
    ran = await playground.run(as_nobody, "id -u && touch mine", seconds=30)
    assert ran.output.strip() == str(NOBODY), ran.output
    bomb, name = fork_bomb()
    ran = await playground.run(as_nobody, bomb, seconds=60)
    assert ran.seconds < 20
    assert ran.code != 0
    assert "Cannot fork" in ran.output or "all of them were stopped" in ran.output
    assert processes_with(name) == []


@dataclasses.dataclass(frozen=True)
class _AsUser:
    """The same sandbox, started by another (unprivileged) user."""

    inner: BubblewrapSandbox
    uid: int

    @property
    def kind(self) -> SandboxKind:
        return "bubblewrap"

    def argv(self, command: str, root: Path) -> list[str]:
        prefix = ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups"]
        return [*prefix, *self.inner.argv(command, root)]

    def environment(self, base: Mapping[str, str], root: Path) -> dict[str, str]:
        return self.inner.environment(base, root)


async def test_yes_into_a_file_stops_at_the_file_size_limit(playground: Playground) -> None:
    box = bubblewrap(playground, Limits(max_file_bytes=5 << 20))
    ran = await playground.run(box, "yes > filler.txt", seconds=60)
    assert ran.code == 153
    assert "a file reached the size limit of 5 MiB" in ran.output
    assert (playground.root / "filler.txt").stat().st_size == 5 << 20


async def test_many_files_stop_at_the_disk_budget(playground: Playground) -> None:
    box = bubblewrap(playground, Limits(max_file_bytes=4 << 20, disk_budget_bytes=24 << 20))
    filler = "i=0; while [ $i -lt 100 ]; do head -c 4000000 /dev/zero > f$i; i=$((i+1)); done"
    ran = await playground.run(box, filler, seconds=60)
    assert ran.code == 137
    assert "used up more than 24 MiB of disk space" in ran.output
    written = sum(p.stat().st_size for p in playground.root.glob("f*"))
    assert written < 100 * 4_000_000


async def test_private_temp_is_size_limited(playground: Playground) -> None:
    box = bubblewrap(playground, Limits(tmp_bytes=2 << 20))
    ran = await playground.run(box, "head -c 3000000 /dev/zero > /tmp/big")
    assert ran.code != 0 and "No space left on device" in ran.output


async def test_background_processes_die_with_the_command(playground: Playground) -> None:
    box = bubblewrap(playground)
    marker = unique_seconds(31)
    ran = await playground.run(box, f"sleep {marker} & echo started", seconds=30)
    assert (ran.code, ran.output) == (0, "started\n")
    assert ran.seconds < 10
    assert await gone(marker) == []


async def test_killing_the_tool_kills_the_whole_sandbox(playground: Playground) -> None:
    """What run_command does on a timeout or a cancel: SIGTERM to its process group."""
    box = bubblewrap(playground)
    first, second = unique_seconds(27), unique_seconds(28)
    proc = await asyncio.create_subprocess_exec(
        *box.argv(f"(sleep {first}; echo late > late.txt) & sleep {second}", playground.root),
        cwd=playground.root,
        env=box.environment(playground.environ, playground.root),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.DEVNULL,
        start_new_session=True,
    )
    assert await running(second, 5)
    kill_group(proc.pid, signal.SIGTERM)
    await asyncio.wait_for(proc.wait(), 10)
    assert await gone(first) == [] and await gone(second) == []
    assert not (playground.root / "late.txt").exists()


async def test_the_guard_leaves_no_mask_kit_or_cgroup_behind(
    playground: Playground, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A temp folder of this test's own: other workers' sandboxes come and go in the shared one.
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    before = kit_folders()
    box = bubblewrap(playground)
    ran = await playground.run(box, "cat .env; true")
    assert ran.code == 0
    assert kit_folders() <= before
    for parent in cgroups.controller_parents("pids"):
        assert not list(parent.glob(f"kesi-sandbox-{os.getpid()}*"))
