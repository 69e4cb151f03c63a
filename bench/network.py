"""Benchmark: what the sandbox's network proxy costs (issue 27).

The path a sandboxed command's request takes: the forwarder (`core/network/forwarder.py`, a
loopback port leading to a UNIX socket) and the proxy's channel (`core/network/proxy.py`,
judging the host, then relaying). Both run here as in a sandbox, without bubblewrap around
them (its start-up is the sandbox's cost, not the network's): the forwarder as its own
process, the channel in this event loop (as in the server's), and a loopback web server in a
process of its own standing in for the internet. Rounds alternate direct and proxied.

- a 50 MB download with curl through the forwarder and the proxy against the same download
  straight from the server (target: at least 0.8x the throughput, i.e. at most 1.25x the time):
  the median, over 21 rounds, of each round's proxied time over its direct time (the two run
  back to back, in alternating order). Why not the best of each side, as it was: on the 2-core
  machine a direct download takes 25-37 ms, with a rare 13-16 ms one when the server and curl
  happen to land on the right cores; the best of 9 picked that outlier or not, and the same
  code measured 1.0x to 2.2x from one run to the next (bench/README §12). A round's own ratio
  compares the two under the same conditions, and the median of many is steadier (1.04-1.29x
  over 17 runs of one code, bench/README §12);
- the same download from a second stand-in whose connections do not pace (reno): this
  machine's default, BBR, paces the direct download too, which flatters the first figure; most
  systems' default (cubic) does not pace, and there the relay's second TCP connection shows;
- 100 small requests, each on a new connection (as pip's first requests to a host are), from
  a client process of their own: the median time added per request (target under 2 ms);
- the forwarder's start: a sandboxed `true` in the real bubblewrap sandbox with the network
  on (the forwarder starts in front of every command) against the same with it off (target:
  at most 1.25x the time).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import statistics
import sys
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

from bench.network_start import forwarder_start
from bench.report import Figure, Report
from kesi_lsp.core.network.access import judge_for
from kesi_lsp.core.network.addresses import MappedResolver, SystemResolver
from kesi_lsp.core.network.proxy import Channel
from kesi_lsp.core.sandbox.bubblewrap import FORWARDER_PATH
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings

NAME = "network"
BIG = 50 << 20
HOST = "big.test"
UNPACED_HOST = "unpaced.test"
UNPACED = "reno"
"""The congestion control of the second stand-in server's connections: one that does not pace
(as cubic, most systems' default, does not), where this machine's default (BBR) paces."""

Rounds = tuple[list[float], list[float]]

# The small requests' client, in its own interpreter (sharing this one's GIL would time the
# client's Python against the proxy's): alternating direct and proxied, a new connection each.
SMALL_CLIENT = """
import json, sys, time, urllib.request
direct_url, proxied_url, proxy, count = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
openers = (urllib.request.build_opener(urllib.request.ProxyHandler({})),
           urllib.request.build_opener(urllib.request.ProxyHandler({"http": proxy})))
times = ([], [])
for _ in range(count):
    for side, url in ((0, direct_url), (1, proxied_url)):
        started = time.perf_counter()
        with openers[side].open(url) as answer:
            answer.read()
        times[side].append(time.perf_counter() - started)
print(json.dumps(times))
"""


async def _curl_seconds(*args: str) -> float:
    proc = await asyncio.create_subprocess_exec(
        "curl", "-sS", "-o", "/dev/null", "-w", "%{time_total}", *args,
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await proc.communicate()
    return float(out.decode().strip() or "nan")


async def _forwarder(socket_path: str) -> tuple[asyncio.subprocess.Process, int]:
    """The forwarder as in a sandbox, its command printing the proxy it was given and waiting."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-S", FORWARDER_PATH, socket_path,
        "--", "/bin/sh", "-c", 'echo "$HTTP_PROXY"; exec sleep 600',
        stdout=asyncio.subprocess.PIPE,
        start_new_session=True,  # its command too is stopped with the group afterwards
    )  # fmt: skip
    assert proc.stdout is not None
    line = (await proc.stdout.readline()).decode().strip()
    return proc, int(line.rpartition(":")[2])


# The stand-in for the internet: Python's file server, sending a file's body with sendfile (as
# nginx and other real file servers do) instead of copying it through Python 64 KB at a time.
# A remote server's CPU is not the user's machine's: copying, this one took one of the two
# cores the client and the proxy's relay share, and the benchmark timed that contest.
WEB_SERVER = """
import functools, http.server, socket, sys
class Handler(http.server.SimpleHTTPRequestHandler):
    def copyfile(self, source, outputfile):
        outputfile.flush()
        self.connection.sendfile(source)
    def setup(self):
        if len(sys.argv) > 2:
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_CONGESTION, sys.argv[2].encode())
        super().setup()
    def log_message(self, *args):
        pass
handler = functools.partial(Handler, directory=sys.argv[1])
with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
    print(server.server_address[1], flush=True)
    server.serve_forever()
"""


@contextlib.asynccontextmanager
async def _web(folder: Path, congestion: str = "") -> AsyncIterator[int]:
    """A loopback web server in a process of its own (its connections on `congestion`, else
    the machine's default); its port."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-c", WEB_SERVER, str(folder), *([congestion] if congestion else []),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert proc.stdout is not None
    line = (await proc.stdout.readline()).decode()
    try:
        yield int(line)
    finally:
        proc.kill()
        await proc.wait()


async def _small(direct: str, proxied: str, proxy: str, count: int) -> tuple[list[float], ...]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-I", "-c", SMALL_CLIENT, direct, proxied, proxy, str(count),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await proc.communicate()
    plain, through = json.loads(out)
    return plain, through


def _write_files(folder: Path, size: int) -> None:
    (folder / "big.bin").write_bytes(b"\0" * size)
    (folder / "small.txt").write_text("ok\n")


async def run(report: Report, *, smoke: bool) -> None:
    if shutil.which("curl") is None:
        print("   (curl not found: network benchmark skipped)")
        return
    size = (10 << 20) if smoke else BIG
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        await asyncio.to_thread(_write_files, folder, size)
        async with _web(folder) as port, _web(folder, UNPACED) as unpaced_port:
            await _through_the_proxy(report, folder, (port, unpaced_port), size, smoke)
        await forwarder_start(report, folder, smoke)


async def _downloads(direct_url: str, proxy: str, host: str, rounds: int) -> Rounds:
    """`rounds` direct and proxied downloads back to back, the order alternating."""
    direct: list[float] = []
    proxied: list[float] = []
    for turn in range(rounds):
        sides = [
            (direct, (f"{direct_url}/big.bin",)),
            (proxied, ("-x", proxy, f"http://{host}/big.bin")),
        ]
        for times, args in sides if turn % 2 == 0 else sides[::-1]:
            times.append(await _curl_seconds(*args))
    return direct, proxied


async def _through_the_proxy(
    report: Report, folder: Path, web_ports: tuple[int, int], size: int, smoke: bool
) -> None:
    session = Session(folder, AgentSettings(network_allow=(HOST, UNPACED_HOST)))
    mapped = {HOST: ("127.0.0.1", web_ports[0]), UNPACED_HOST: ("127.0.0.1", web_ports[1])}
    channel = Channel(judge_for(session), MappedResolver(mapped, SystemResolver()), str)
    forwarder, port = await _forwarder(await channel.listen_unix())
    proxy = f"http://127.0.0.1:{port}"
    direct_url, unpaced_url = (f"http://127.0.0.1:{web_port}" for web_port in web_ports)
    rounds, count = (5, 30) if smoke else (21, 100)
    try:
        paced = await _downloads(direct_url, proxy, HOST, rounds)
        unpaced = await _downloads(unpaced_url, proxy, UNPACED_HOST, rounds)
        plain, through = await _small(
            f"{direct_url}/small.txt", f"http://{HOST}/small.txt", proxy, count
        )
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(forwarder.pid, signal.SIGKILL)
        await forwarder.wait()
        await channel.close()
    mb = size / (1 << 20)
    report.add(_download(f"{mb:g} MB download through the forwarder and proxy", mb, paced))
    report.add(
        _download(
            f"the same, the stand-in's TCP not pacing ({UNPACED}, not the machine's default)",
            mb,
            unpaced,
        )
    )
    _report_small(report, plain, through)


def _download(what: str, mb: float, rounds: Rounds) -> Figure:
    direct, proxied = rounds
    ratio = statistics.median(b / a for a, b in zip(direct, proxied, strict=True))
    plain_ms, proxied_ms = statistics.median(direct) * 1000, statistics.median(proxied) * 1000
    return Figure(
        NAME,
        f"{what}, time / direct time",
        ratio,
        "x",
        1.25,
        baseline=f"direct loopback download, median {plain_ms:.0f} ms "
        f"({mb * 1000 / plain_ms:.0f} MB/s); through the proxy {proxied_ms:.0f} ms "
        f"({mb * 1000 / proxied_ms:.0f} MB/s); best of each {min(proxied) / min(direct):.2f}x",
        note="at most 1.25x the time is at least 0.8x the throughput; median of "
        f"{len(direct)} rounds' own ratios, direct and proxied back to back, order "
        "alternating, with curl",
        ci=False,  # printed: it depends on the machine's TCP (bench/README §12)
    )


def _report_small(report: Report, plain: list[float], through: list[float]) -> None:
    added = (statistics.median(through) - statistics.median(plain)) * 1000
    report.add(
        Figure(
            NAME,
            f"median time added per small request ({len(plain)}, a new connection each)",
            added,
            "ms",
            2.0,
            baseline=f"direct median {statistics.median(plain) * 1000:.2f} ms",
            # Checked in CI (a target missed by half fails): +0.4-1.0 ms even with a busy
            # process beside it, since the relay's threads are kept (bench/README §12).
            note="urllib in a process of its own, alternating; forwarder and proxy on loopback",
        )
    )


__all__ = ["NAME", "run"]
