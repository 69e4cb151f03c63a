"""Every process KeSi starts dies with the server, also a killed one (issue 34, `children.py`).

A stand-in server (tests/core/sandbox/tied_server.py) starts one child of each kind and is
killed with SIGKILL: within 2 s none is left. One of them was started from a worker thread that
ended before the kill, and still ran until then: the lifeline belongs to the process, where a
parent-death signal would have followed the thread. The tether ends as its program ends, and
never kills a process group it does not lead.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import children, tether
from tests.killed import GONE_SECONDS, STARTED_SECONDS
from tests.lsp.working_loop import until
from tests.processes import gone, may_start_our_process, programs_with, sleeping, unique_sleep

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.subprocess
async def test_every_kind_of_child_dies_with_a_killed_server() -> None:
    may_start_our_process("a stand-in server")
    marker = unique_sleep()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    server = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.core.sandbox.tied_server", marker,
        cwd=REPO, env=env, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        started = await asyncio.wait_for(server.stdout.readline(), STARTED_SECONDS)
        assert started == b"started\n"
        # the shell's two sleeps, the lookup's and the one whose thread has ended; and rg
        await until(lambda: sleeping(marker) == 4 and "rg" in programs_with(marker), 30)
        server.kill()
        assert await gone(marker, GONE_SECONDS) == []
    finally:
        if server.returncode is None:
            server.kill()
        await server.wait()


@pytest.fixture
def lifeline() -> Iterator[tuple[int, int]]:
    """A lifeline of the test's own: (read end, write end); closing the write end is the
    server's death."""
    read, write = os.pipe()
    yield read, write
    for fd in (read, write):
        try:
            os.close(fd)
        except OSError:
            pass


def tethered(argv: list[str], read: int, **kwargs: object) -> subprocess.Popen[bytes]:
    env = {**os.environ, tether.LIFELINE_VARIABLE: str(read)}
    return subprocess.Popen(
        children.tied(argv),
        env=env,
        pass_fds=(read,),
        **kwargs,  # type: ignore[call-overload]
    )


@pytest.mark.parametrize(
    ("script", "status"),
    [("exit 3", 3), ("kill -TERM $$", -signal.SIGTERM), ("kill -KILL $$", -signal.SIGKILL)],
)
def test_the_tether_ends_as_its_program_ends(
    script: str, status: int, lifeline: tuple[int, int]
) -> None:
    proc = tethered(["/bin/sh", "-c", script], lifeline[0], start_new_session=True)
    assert proc.wait(30) == status


def test_the_program_does_not_see_the_lifeline(lifeline: tuple[int, int]) -> None:
    script = f'echo "[$KESI_LIFELINE]"; ls /proc/self/fd/{lifeline[0]} 2>/dev/null || echo none'
    proc = tethered(["/bin/sh", "-c", script], lifeline[0], stdout=subprocess.PIPE)
    output, _ = proc.communicate(timeout=30)
    assert output.decode().split() == ["[]", "none"]


async def test_the_tether_never_kills_a_group_it_does_not_lead(
    lifeline: tuple[int, int],
) -> None:
    """Started inside someone else's process group (as an editor's job would be), it makes a
    group of its own: the server's death kills its program, not its neighbours."""
    mine, neighbour = unique_sleep(), unique_sleep()
    program = " ".join(children.tied(["/bin/sleep", mine]))
    leader = await asyncio.create_subprocess_exec(
        "/bin/sh", "-c", f"{program} & sleep {neighbour}; wait",
        env={**os.environ, tether.LIFELINE_VARIABLE: str(lifeline[0])},
        pass_fds=(lifeline[0],),
        start_new_session=True,
    )  # fmt: skip
    try:
        await until(lambda: "sleep" in programs_with(mine) and sleeping(neighbour) == 1, 30)
        os.close(lifeline[1])  # the server is gone
        # the tether and its program end; the shell that started them carries the marker too
        await until(lambda: programs_with(mine) == ["sh"], GONE_SECONDS)
        assert sleeping(neighbour) == 1  # the group it was started in lives on
        assert leader.returncode is None
    finally:
        os.killpg(leader.pid, signal.SIGKILL)
        await leader.wait()


def test_a_missing_program_is_said_as_exec_would_say_it() -> None:
    with pytest.raises(FileNotFoundError):
        children.run(["kesi-no-such-program"], timeout=10)
