"""Two more ways out of a sandboxed command, closed (issue 24 item 5).

- Memory: a command may use `commandMemoryLimit` (default 4 GiB); with a memory cgroup the whole
  command is capped and the guard says so when the kernel stopped a process at the limit;
  without one each process's address space is (RLIMIT_AS) and the result explains the
  program's own allocation failure.
- UNIX sockets: a host service listening on a socket file inside the workspace is out of reach
  (the sandbox has no network, and such a socket would be one); sockets the command makes
  itself work.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from kesi_lsp.core.sandbox import cgroups
from kesi_lsp.core.sandbox.bubblewrap import Limits
from kesi_lsp.core.sandbox.hidden import explain
from tests.core.sandbox.conftest import Playground, bubblewrap

pytestmark = pytest.mark.sandbox

PYTHON = "/usr/bin/python3"
HOG = f"{PYTHON} -c 'data = b\"x\" * (600 << 20); print(len(data))'"
"""Writes 600 MiB (a bytes object is filled, so every page is really used)."""


async def test_a_command_past_the_memory_limit_is_stopped_and_says_so(
    playground: Playground, bwrap: str
) -> None:
    box = bubblewrap(playground, Limits(max_memory_bytes=200 << 20))
    ran = await playground.run(box, f"{HOG}; echo after=$?")
    assert "629145600" not in ran.output  # it never got its memory
    if cgroups.memory_parents():  # a memory cgroup: the kernel stopped it, the guard says so
        assert "after=137" in ran.output
        assert "reached the memory limit of 200 MiB" in ran.output
        assert "commandMemoryLimit" in ran.output
    else:  # RLIMIT_AS: the allocation failed, and the note says why
        assert "MemoryError" in ran.output
        notes = explain(box, ran.output, playground.root, "en")
        assert any("at most 200 MiB of memory" in note for note in notes), notes


async def test_without_a_cgroup_each_process_gets_the_limit_as_address_space(
    playground: Playground, bwrap: str
) -> None:
    box = bubblewrap(playground, Limits(max_memory_bytes=200 << 20, use_cgroup=False))
    ran = await playground.run(box, HOG)
    assert ran.code == 1 and "MemoryError" in ran.output
    assert "629145600" not in ran.output


async def test_the_default_limit_leaves_ordinary_commands_alone(
    playground: Playground, bwrap: str
) -> None:
    ran = await playground.run(bubblewrap(playground), HOG)
    assert ran.code == 0 and "629145600" in ran.output, ran.output


@contextlib.contextmanager
def listening(root: Path, *names: str) -> Iterator[list[socket.socket]]:
    """Host servers on socket files in the workspace (bound by relative path: the workspace's
    absolute path is longer than a socket address may be)."""
    servers = []
    here = Path.cwd()
    os.chdir(root)
    try:
        for name in names:
            server = socket.socket(socket.AF_UNIX)
            server.bind(name)
            server.listen()
            server.setblocking(False)
            servers.append(server)
    finally:
        os.chdir(here)
    try:
        yield servers
    finally:
        for server in servers:
            server.close()


def reach(path: str) -> str:
    return (
        f"{PYTHON} -c 'import socket; s = socket.socket(socket.AF_UNIX)\n"
        f'try:\n    s.connect("{path}"); print("{path}: connected")\n'
        f'except OSError as e: print("{path}:", e)\''
    )


async def test_a_host_service_socket_in_the_workspace_is_out_of_reach(
    playground: Playground, bwrap: str
) -> None:
    root = playground.root
    (root / "run").mkdir()
    (root / ".git").mkdir()
    names = ("run/db.sock", ".git/fsmonitor--daemon.ipc")
    with listening(root, *names) as servers:
        ran = await playground.run(bubblewrap(playground), "; ".join(reach(n) for n in names))
        for server in servers:
            with contextlib.suppress(BlockingIOError), server.accept()[0]:
                raise AssertionError("a sandboxed command reached a host socket")
    for name in names:  # refused (the socket is covered by a file nobody may open)
        assert f"{name}: [Errno 13] Permission denied" in ran.output, ran.output


async def test_a_socket_the_command_makes_itself_works(playground: Playground, bwrap: str) -> None:
    script = (
        f'{PYTHON} -c \'import socket; s = socket.socket(socket.AF_UNIX); s.bind("own.sock"); '
        's.listen(); c = socket.socket(socket.AF_UNIX); c.connect("own.sock"); '
        's.accept()[0].sendall(b"hello"); print(c.recv(5).decode())\''
    )
    ran = await playground.run(bubblewrap(playground), script)
    assert ran.code == 0 and ran.output.strip() == "hello", ran.output
