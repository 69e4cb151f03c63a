"""A warm process the fast loop's test workers are forked from (`./dev test --fast`).

Each pytest-xdist worker is a new interpreter that imports the suite before it runs a test,
and most of that is the same every time: the model SDK, the ACP and MCP SDKs (thousands of
pydantic classes) and KeSi itself. On a 2-core machine four workers spent ~12 s of CPU each on
it, a quarter of the fast loop. This server imports those once, then forks a worker for each
`launcher.py` that connects: the child takes the launcher's streams, folder, environment and
arguments and runs what xdist asked a `python -u -c` to run. The suite's own modules (tests.*,
the pytest plugins) are not imported here: each worker imports them itself, so assertions are
rewritten and module-level set-up (a private state folder) is the worker's own.

One process, one thread, no timers: a selector waits on the listening socket, each launcher's
connection (closed: the launcher was killed, so its worker is too) and each worker's pidfd
(ended: its status goes back to its launcher).
"""

from __future__ import annotations

import array
import contextlib
import gc
import importlib
import io
import json
import os
import selectors
import signal
import socket
import sys
from pathlib import Path
from typing import Any

WARM = (
    "anthropic",
    "acp",
    "mcp",
    "mcp.client.session",
    "mcp.client.stdio",
    "mcp.server.fastmcp",
    "httpx",
    "uvicorn",
    "starlette.applications",
    "sse_starlette",
    "pygls.lsp.server",
    "pygls.lsp.client",
    "lsprotocol.types",
    "kesi_lsp.lsp.app",
    "kesi_lsp.acp",
    "kesi_lsp.core.loop",
    "kesi_lsp.core.model.anthropic",
    "kesi_lsp.scripted_api.server",
    "kesi_lsp.testing",
)
"""What every worker imports and nothing configures at import time."""


def warm_up() -> None:
    """Import `WARM` with the collector off (nothing made here is garbage; on, it made half
    the time), then move all of it out of the collector's sight for good."""
    gc.disable()
    for name in WARM:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    gc.freeze()  # the children's collectors never touch (and copy) what is shared
    gc.enable()


def serve(path: str) -> None:
    """Listen at once (launchers that come early wait in the backlog), then warm up."""
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    Path(path).unlink(missing_ok=True)
    listener.bind(path)
    listener.listen(64)
    print(path, flush=True)  # listening: whoever started the server may read this line
    warm_up()
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, None)
    workers: dict[int, tuple[int, socket.socket]] = {}  # pidfd -> (pid, launcher)
    signal.signal(signal.SIGTERM, lambda *_: _stop(workers))
    while True:
        for key, _ in selector.select():
            if key.fileobj is listener:
                _accept(listener, selector, workers)
            elif key.data == "launcher":
                _launcher_closed(key.fileobj, selector, workers)  # type: ignore[arg-type]
            else:
                _worker_ended(int(key.data), selector, workers)


def _accept(
    listener: socket.socket,
    selector: selectors.BaseSelector,
    workers: dict[int, tuple[int, socket.socket]],
) -> None:
    launcher, _ = listener.accept()
    request, streams = _receive(launcher)
    pid = os.fork()
    if pid == 0:
        try:
            listener.close()
            for _, other in workers.values():
                other.close()
            launcher.close()
            _become_worker(request, streams)
        finally:
            os._exit(1)  # never back into the server's loop
    for fd in streams:
        os.close(fd)
    pidfd = os.pidfd_open(pid)
    workers[pidfd] = (pid, launcher)
    selector.register(pidfd, selectors.EVENT_READ, str(pidfd))
    selector.register(launcher, selectors.EVENT_READ, "launcher")


def _receive(launcher: socket.socket) -> tuple[dict[str, Any], list[int]]:
    fds = array.array("i")
    message, ancillary, _, _ = launcher.recvmsg(1 << 20, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    size = int.from_bytes(message[:4], "big")
    body = message[4:]
    while len(body) < size:
        body += launcher.recv(size - len(body))
    return json.loads(body), list(fds)


def _become_worker(request: dict[str, Any], streams: list[int]) -> None:
    """In the child: the launcher's streams, folder and environment, then `python -u -c`."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    for target, fd in enumerate(streams):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    argv = request["argv"]
    code = argv[argv.index("-c") + 1]
    sys.argv = ["-c", *argv[argv.index("-c") + 2 :]]
    sys.stdin = os.fdopen(0, "r", closefd=False)
    sys.stdout = _unbuffered(1)  # as `python -u` has them
    sys.stderr = _unbuffered(2)
    status = 0
    try:
        exec(compile(code, "<string>", "exec"), {"__name__": "__main__"})
    except SystemExit as exit_:
        status = exit_.code if isinstance(exit_.code, int) else 1
    except BaseException:  # the worker's own failure, reported as python reports it
        import traceback

        traceback.print_exc()
        status = 1
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(status)


def _unbuffered(fd: int) -> io.TextIOWrapper:
    raw = io.FileIO(fd, "w", closefd=False)
    return io.TextIOWrapper(raw, encoding="utf-8", line_buffering=True, write_through=True)


def _launcher_closed(
    launcher: socket.socket,
    selector: selectors.BaseSelector,
    workers: dict[int, tuple[int, socket.socket]],
) -> None:
    """The launcher went away (killed with its worker's pytest): so does the worker."""
    selector.unregister(launcher)
    for pid, other in workers.values():
        if other is launcher:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _worker_ended(
    pidfd: int, selector: selectors.BaseSelector, workers: dict[int, tuple[int, socket.socket]]
) -> None:
    pid, launcher = workers.pop(pidfd)
    selector.unregister(pidfd)
    os.close(pidfd)
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    with contextlib.suppress(OSError):
        launcher.sendall(str(code).encode())
    with contextlib.suppress(KeyError, ValueError):
        selector.unregister(launcher)
    launcher.close()


def _stop(workers: dict[int, tuple[int, socket.socket]]) -> None:
    for pid, _ in workers.values():
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    raise SystemExit(0)


if __name__ == "__main__":
    serve(sys.argv[1])
