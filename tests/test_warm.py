"""The fast loop's warm workers (`tests/warm`): a forked worker runs what xdist asked a `python
-u -c` to run, in the launcher's folder and environment, and ends with it."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.subprocess

LAUNCHER = Path(__file__).parent / "warm" / "launcher.py"
SHOW = (
    "import os, sys; print(os.getcwd(), os.environ['MARK'], sys.argv, 'anthropic' in sys.modules)"
)


@pytest.fixture(scope="module")
def warm_socket(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("warm") / "socket"
    argv = [sys.executable, "-m", "tests.warm.server", str(path)]
    server = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        assert server.stdout.readline().strip() == str(path), "the warm server did not listen"
        yield path
    finally:
        server.terminate()
        server.wait(10)


def launch(socket: Path, folder: Path, code: str) -> subprocess.Popen[str]:
    env = {**os.environ, "KESI_WARM_SOCKET": str(socket), "MARK": "from-the-launcher"}
    argv = [sys.executable, "-I", "-S", str(LAUNCHER), "-u", "-c", code, "extra"]
    return subprocess.Popen(argv, cwd=folder, env=env, stdout=subprocess.PIPE, text=True)


def test_a_warm_worker_runs_the_code_where_and_as_the_launcher_was(
    warm_socket: Path, tmp_path: Path
) -> None:
    worker = launch(warm_socket, tmp_path, SHOW + "; sys.exit(3)")
    out, _ = worker.communicate(timeout=60)
    assert out.split() == [str(tmp_path), "from-the-launcher", "['-c',", "'extra']", "True"]
    assert worker.returncode == 3


def test_without_a_server_the_launcher_is_the_interpreter_itself(tmp_path: Path) -> None:
    worker = launch(tmp_path / "no-server", tmp_path, SHOW)
    out, _ = worker.communicate(timeout=60)
    assert out.split() == [str(tmp_path), "from-the-launcher", "['-c',", "'extra']", "False"]
    assert worker.returncode == 0


def test_a_killed_launcher_takes_its_worker_with_it(warm_socket: Path, tmp_path: Path) -> None:
    code = "import os, time; print(os.getpid(), flush=True); time.sleep(300)"
    worker = launch(warm_socket, tmp_path, code)
    assert worker.stdout is not None
    forked = os.pidfd_open(int(worker.stdout.readline()))
    try:
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(10)
        ended, _, _ = select.select([forked], [], [], 30)  # readable once the worker has exited
        assert ended, "the forked worker outlived its launcher"
    finally:
        os.close(forked)
