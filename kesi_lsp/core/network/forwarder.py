"""The forwarder inside the sandbox: a loopback port of the command's own network namespace
that leads to KeSi's proxy outside, through a UNIX socket bound into the sandbox.

A sandboxed command's network namespace has nothing but its own loopback: no route out, no
resolver. Programs expect an HTTP proxy at `host:port`, not at a socket file, so this small
program listens on 127.0.0.1 (a free port of the namespace, chosen when it binds), sets the
proxy variables for the command, starts it, and hands each connection the command opens to the
proxy (the connected socket itself, passed over the UNIX socket: `_hand_over`) until the
command ends; then it exits with the command's status (dying of the same signal, so the
shell's view is unchanged).

It starts in front of every sandboxed command while the network is on, most of which never
connect, so it imports only the interpreter's C modules (`_socket`, `_thread`; no `socket`,
`subprocess`, `threading` or `typing`: those took its start from a bare interpreter's +5 ms
to +100 ms on the loaded 2-core machine, bench/network.py). No byte of a connection passes
through this process.

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

HANDOVER: Final = b"F"
"""The one byte sent with a handed-over descriptor (the proxy reads it as "a connection
follows", not as the start of a request)."""
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


def _hand_over(client: _socket.socket, path: str) -> None:
    """Give the command's connection itself to the proxy (its descriptor, over the UNIX
    socket), then let go of it: from here on the proxy outside reads and writes the command's
    socket directly, so the bytes cross one relay (the proxy's, spliced in the kernel) instead
    of two, and this process moves none of them. A connection the proxy cannot take is
    closed (the command sees it refused)."""
    upstream = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        upstream.connect(path)
        descriptor = client.fileno().to_bytes(4, sys.byteorder)
        upstream.sendmsg([HANDOVER], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, descriptor)])
    except OSError:
        pass
    finally:
        upstream.close()
        client.close()


def _accept(listener: _socket.socket, path: str) -> None:
    while True:
        try:
            fd, _ = listener._accept()  # type: ignore[attr-defined]  # the C type's accept
        except OSError:
            return
        client = _socket.socket(fileno=fd)
        client.setsockopt(_socket.IPPROTO_TCP, _socket.TCP_NODELAY, 1)
        _hand_over(client, path)


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
