"""The doctor's live probe of the network proxy (`kesi-lsp doctor`, issue 27).

A command in the real sandbox, through a real channel and forwarder, asks two test hosts for a
file: one the probe's allow-list names, one its deny-list names. Both names are mapped to a web
server on this machine's loopback inside the proxy's resolver (as the tests do), so no
internet is needed, and the user's own lists are not touched (they are shown, not used: the
probe must say whether the machinery works, whatever the lists say). The allowed request must
come back with the file, the denied one with the proxy's 403, and the server must see only the
first.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.server
import os
import shlex
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from kesi_lsp.core.network.access import NetworkAccess
from kesi_lsp.core.network.addresses import MappedResolver, SystemResolver
from kesi_lsp.core.sandbox import NetworkBridge, Sandbox, children
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings

ALLOWED: Final = "allowed.kesi-doctor.test"
DENIED: Final = "denied.kesi-doctor.test"
ANSWER: Final = "kesi-doctor-ok"
PROBE_SECONDS: Final = 30.0
SCRIPT: Final = f"""
import urllib.request, urllib.error
print("allowed", urllib.request.urlopen("http://{ALLOWED}/probe.txt", timeout=10).read().decode())
try:
    urllib.request.urlopen("http://{DENIED}/probe.txt", timeout=10)
    print("denied open")
except urllib.error.HTTPError as exc:
    print("denied", exc.code)
"""


@dataclass(frozen=True)
class ProxyProbe:
    """`ok`: the allowed host answered and the denied one got the proxy's 403 without reaching
    the server; otherwise `problem` names what went wrong ("start", "allowed", "denied") and
    `detail` what was seen."""

    ok: bool
    problem: str = ""
    detail: str = ""


@contextlib.contextmanager
def _web(folder: Path) -> Iterator[tuple[int, list[str]]]:
    hits: list[str] = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

        def do_GET(self) -> None:
            hits.append(self.headers.get("Host", ""))
            super().do_GET()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_address[1]), hits
    finally:
        server.shutdown()
        server.server_close()


async def probe_proxy(sandbox: Sandbox, root: Path, environ: Mapping[str, str]) -> ProxyProbe:
    """Run the probe's command in `sandbox` (workspace `root`) through a fresh channel."""
    with tempfile.TemporaryDirectory(prefix="kesi-doctor-web-") as name:
        (Path(name) / "probe.txt").write_text(ANSWER)
        (root / "kesi_probe.py").write_text(SCRIPT)
        with _web(Path(name)) as (port, hits):
            mapped = {ALLOWED: ("127.0.0.1", port), DENIED: ("127.0.0.1", port)}
            access = NetworkAccess(MappedResolver(mapped, SystemResolver()))
            settings = AgentSettings(
                sandbox_network="allowList", network_allow=(ALLOWED,), network_deny=(DENIED,)
            )
            opened = await access.open(Session(root, settings), sandbox)
            if opened is None:
                return ProxyProbe(False, "start", sandbox.kind)
            try:
                out = await _run(sandbox, root, environ, opened.bridge)
            finally:
                await opened.channel.close()
    return _judged(out, hits)


async def _run(
    sandbox: Sandbox, root: Path, environ: Mapping[str, str], bridge: NetworkBridge
) -> str:
    proc = await children.start(
        _argv(sandbox, root, bridge),
        env=sandbox.environment(environ, root),
        cwd=root,
        watches_itself=True,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        stdin=asyncio.subprocess.DEVNULL,
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), PROBE_SECONDS)
    except TimeoutError:
        proc.kill()
        return "timed out"
    return out.decode(errors="replace")


def _argv(sandbox: Sandbox, root: Path, bridge: NetworkBridge) -> list[str]:
    """This interpreter runs the probe (bubblewrap mounts it while the network is on)."""
    python = shlex.quote(os.path.realpath(sys.executable))
    return sandbox.argv(f"exec {python} -I -S kesi_probe.py", root, bridge)


def _judged(out: str, hits: list[str]) -> ProxyProbe:
    lines = out.strip().splitlines()
    last = lines[-1] if lines else "no output"
    if f"allowed {ANSWER}" not in lines:
        return ProxyProbe(False, "allowed", last)
    if "denied 403" not in lines or any(DENIED in hit for hit in hits):
        return ProxyProbe(False, "denied", last)
    return ProxyProbe(True)
