"""What pytest-xdist starts as a worker's `python` in the fast loop: a stand-in that has the
warm server (`server.py`) fork a worker with the heavy imports already done.

It hands the server its standard streams, its arguments, folder and environment, waits for
the worker to end and exits with its status. Run with `-I -S`, it imports only built-in
modules, so it costs less than the interpreter it saves. Where no server answers (none was
started, or it has gone) it becomes the real interpreter, so a worker always starts.
"""

from __future__ import annotations

import array
import json
import os
import socket
import sys

SOCKET_VARIABLE = "KESI_WARM_SOCKET"


def main(argv: list[str]) -> int:
    path = os.environ.get(SOCKET_VARIABLE, "")
    try:
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.connect(path)
    except OSError:
        os.execv(sys.executable, [sys.executable, *argv])
    folder = os.getcwd()  # noqa: PTH109 - pathlib would cost this launcher more than it does
    request = json.dumps({"argv": argv, "cwd": folder, "env": dict(os.environ)}).encode()
    streams = array.array("i", [0, 1, 2])
    server.sendmsg(
        [len(request).to_bytes(4, "big") + request],
        [(socket.SOL_SOCKET, socket.SCM_RIGHTS, streams.tobytes())],
    )
    answer = b""
    while chunk := server.recv(16):
        answer += chunk
    return int(answer) if answer.strip().lstrip(b"-").isdigit() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
