"""The forwarder inside the sandbox: a loopback port of the command's own network namespace
that leads to KeSi's proxy outside, through a UNIX socket bound into the sandbox.

A sandboxed command's network namespace has nothing but its own loopback: no route out, no
resolver. Programs expect an HTTP proxy at `host:port`, not at a socket file, so this small
program listens on 127.0.0.1 (a free port of the namespace, chosen when it binds), sets the
proxy variables for the command, starts it, and copies bytes between each connection and the
proxy's socket until the command ends; then it exits with the command's status (dying of
the same signal, so the shell's view is unchanged).

Run by path with `-I -S` inside the sandbox: standard library only, nothing printed.
Usage: forwarder.py SOCKET -- ARGV...
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence
from typing import Final

CHUNK: Final = 1 << 18
NO_PROXY: Final = "localhost,127.0.0.1,::1"
PROXY_VARIABLES: Final = (
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "ALL_PROXY",
    "https_proxy",
    "http_proxy",
    "all_proxy",
    "npm_config_proxy",
    "npm_config_https_proxy",
    "PIP_PROXY",
)


def proxy_environment(base: dict[str, str], port: int) -> dict[str, str]:
    """The command's environment: every proxy variable at the forwarder; the namespace's own
    loopback (a test server the command starts itself) reached directly."""
    env = dict(base)
    url = f"http://127.0.0.1:{port}"
    for name in PROXY_VARIABLES:
        env[name] = url
    env["NO_PROXY"] = env["no_proxy"] = NO_PROXY
    return env


def _pump(source: socket.socket, sink: socket.socket) -> None:
    """Copy until `source` ends, then end `sink`'s writing side (half-close)."""
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    try:
        while True:
            count = source.recv_into(buffer)
            if count == 0:
                break
            sink.sendall(view[:count])
    except OSError:
        pass
    try:
        sink.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def _serve_one(client: socket.socket, path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        upstream.close()
        return
    back = threading.Thread(target=_pump, args=(upstream, client), daemon=True)
    back.start()
    _pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def _accept(listener: socket.socket, path: str) -> None:
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=_serve_one, args=(client, path), daemon=True).start()


def main(argv: Sequence[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        sys.stderr.write("usage: forwarder.py SOCKET -- ARGV...\n")
        return 2
    path, command = argv[1], list(argv[3:])
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    env = proxy_environment(dict(os.environ), listener.getsockname()[1])
    threading.Thread(target=_accept, args=(listener, path), daemon=True).start()
    try:
        child = subprocess.Popen(command, env=env)
    except OSError as exc:
        sys.stderr.write(f"{command[0]}: {exc.strerror}\n")
        return 127
    status = child.wait()
    sys.stdout.flush()
    if status < 0:
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    os._exit(status if status >= 0 else 128 - status)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
