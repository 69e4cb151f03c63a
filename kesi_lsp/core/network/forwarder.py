"""The forwarder inside the sandbox: a loopback port of the command's own network namespace
that leads to KeSi's proxy outside, through a UNIX socket bound into the sandbox.

A sandboxed command's network namespace has nothing but its own loopback: no route out, no
resolver. Programs expect an HTTP proxy at `host:port`, not at a socket file, so this small
program listens on 127.0.0.1 (a free port of the namespace, chosen when it binds), sets the
proxy variables for the command, starts it, and moves bytes between each connection and the
proxy's socket until the command ends; then it exits with the command's status (dying of
the same signal, so the shell's view is unchanged).

It starts in front of every sandboxed command while the network is on, most of which never
connect, so it imports only the interpreter's C modules (`_socket`, `_thread`; no `socket`,
`subprocess`, `threading` or `typing`: those took its start from a bare interpreter's +5 ms
to +100 ms on the loaded 2-core machine, bench/network.py) and what a connection needs
(`fcntl`) when one comes. Bytes move in the kernel (splice), not through this process.

Run by path with `-I -S` inside the sandbox: standard library only, nothing printed.
Usage: forwarder.py SOCKET -- ARGV...
"""

from __future__ import annotations

import _socket
import _thread
import os
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
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
F_SETPIPE_SZ: Final = 1031  # Linux's fcntl number (the fcntl module names it from 3.10)


def proxy_environment(base: dict[str, str], port: int) -> dict[str, str]:
    """The command's environment: every proxy variable at the forwarder; the namespace's own
    loopback (a test server the command starts itself) reached directly."""
    env = dict(base)
    url = f"http://127.0.0.1:{port}"
    for name in PROXY_VARIABLES:
        env[name] = url
    env["NO_PROXY"] = env["no_proxy"] = NO_PROXY
    return env


def _pump(source: _socket.socket, sink: _socket.socket) -> None:
    """Move bytes until `source` ends, then end `sink`'s writing side (half-close)."""
    try:
        _splice(source, sink)
    except OSError:
        pass
    try:
        sink.shutdown(_socket.SHUT_WR)
    except OSError:
        pass


def _splice(source: _socket.socket, sink: _socket.socket) -> None:
    """Move the bytes in the kernel (splice through a pipe: no copy into this process); a
    plain copy where splice is missing."""
    splice = getattr(os, "splice", None)
    if splice is None:
        _copy(source, sink)
        return
    import fcntl  # a connection's cost, not every command's

    read_end, write_end = os.pipe()
    try:
        try:
            fcntl.fcntl(write_end, F_SETPIPE_SZ, CHUNK)
        except OSError:
            pass
        while True:
            count = splice(source.fileno(), write_end, CHUNK)
            if count == 0:
                return
            while count:
                count -= splice(read_end, sink.fileno(), count)
    finally:
        os.close(read_end)
        os.close(write_end)


def _copy(source: _socket.socket, sink: _socket.socket) -> None:
    buffer = bytearray(CHUNK)
    view = memoryview(buffer)
    while count := source.recv_into(buffer):
        sink.sendall(view[:count])


def _serve_one(client: _socket.socket, path: str) -> None:
    upstream = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        upstream.connect(path)
    except OSError:
        client.close()
        upstream.close()
        return
    back_done = _thread.allocate_lock()
    back_done.acquire()

    def back() -> None:
        try:
            _pump(upstream, client)
        finally:
            back_done.release()

    _thread.start_new_thread(back, ())
    _pump(client, upstream)
    back_done.acquire()
    client.close()
    upstream.close()


def _accept(listener: _socket.socket, path: str) -> None:
    while True:
        try:
            fd, _ = listener._accept()  # type: ignore[attr-defined]  # the C type's accept
        except OSError:
            return
        client = _socket.socket(fileno=fd)
        client.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
        _thread.start_new_thread(_serve_one, (client, path))


def _die_like(status: int) -> None:
    """End this process as the command ended: of its signal, else with its exit code."""
    sys.stdout.flush()
    if status < 0:
        import signal  # only on this rare path (it imports enum)

        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    os._exit(status if status >= 0 else 128 - status)


def main(argv: Sequence[str]) -> int:
    if len(argv) < 4 or argv[2] != "--":
        sys.stderr.write("usage: forwarder.py SOCKET -- ARGV...\n")
        return 2
    path, command = argv[1], list(argv[3:])
    listener = _socket.socket(_socket.AF_INET, _socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    env = proxy_environment(dict(os.environ), listener.getsockname()[1])
    _thread.start_new_thread(_accept, (listener, path))
    try:
        # The command gets the signals' defaults back (Python ignores SIGPIPE for itself).
        pid = os.posix_spawnp(command[0], command, env, setsigdef=(13, 25))  # PIPE, XFSZ
    except OSError as exc:
        sys.stderr.write(f"{command[0]}: {exc.strerror}\n")
        return 127
    _, status = os.waitpid(pid, 0)
    _die_like(os.waitstatus_to_exitcode(status))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
