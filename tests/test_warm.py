"""The fast loop's warm workers (`tests/warm`): a forked worker runs what xdist asked a `python
-u -c` to run, in the launcher's folder and environment, and ends with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
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
    server = subprocess.Popen([sys.executable, "-m", "tests.warm.server", str(path)])
    try:
        deadline = time.monotonic() + 30
        while not path.exists() and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.01)
        assert path.exists(), "the warm server did not listen"
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
    forked = Path(f"/proc/{int(worker.stdout.readline())}")
    os.kill(worker.pid, signal.SIGKILL)
    worker.wait(10)
    deadline = time.monotonic() + 30
    while forked.exists() and time.monotonic() < deadline:  # killed, then reaped by the server
        time.sleep(0.01)
    assert not forked.exists()
