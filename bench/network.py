"""Benchmark: what the sandbox's network proxy costs (issue 27).

The path a sandboxed command's request takes: the forwarder (`core/network/forwarder.py`, a
loopback port leading to a UNIX socket) and the proxy's channel (`core/network/proxy.py`,
judging the host, then piping). Both run here as in a sandbox, without bubblewrap around
them (its start-up is the sandbox's cost, not the network's): the forwarder as its own
process, the channel in this event loop, a loopback web server standing in for the internet.

- a 50 MB download with curl through the forwarder and the proxy against the same download
  straight from the server (target: at least 0.8x the throughput, i.e. at most 1.25x the time);
- 100 small requests, each on a new connection (as pip's first requests to a host are): the
  median time added per request (target under 2 ms).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from bench.report import Figure, Report
from kesi_lsp.core.network.access import judge_for
from kesi_lsp.core.network.addresses import MappedResolver, SystemResolver
from kesi_lsp.core.network.proxy import Channel
from kesi_lsp.core.sandbox.bubblewrap import FORWARDER_PATH
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from tests.core.network.servers import site

NAME = "network"
BIG = 50 << 20


async def _curl_seconds(*args: str) -> float:
    proc = await asyncio.create_subprocess_exec(
        "curl",
        "-sS",
        "-o",
        "/dev/null",
        "-w",
        "%{time_total}",
        *args,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await proc.communicate()
    return float(out.decode().strip() or "nan")


async def _forwarder(socket_path: str) -> tuple[asyncio.subprocess.Process, int]:
    """The forwarder as in a sandbox, its command printing the proxy it was given and waiting."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-I",
        "-S",
        FORWARDER_PATH,
        socket_path,
        "--",
        "/bin/sh",
        "-c",
        'echo "$HTTP_PROXY"; exec sleep 600',
        stdout=asyncio.subprocess.PIPE,
        start_new_session=True,  # its command too is stopped with the group afterwards
    )
    assert proc.stdout is not None
    line = (await proc.stdout.readline()).decode().strip()
    return proc, int(line.rpartition(":")[2])


def _small_requests(url: str, proxy: str | None, count: int) -> list[float]:
    handler = urllib.request.ProxyHandler({"http": proxy} if proxy else {})
    opener = urllib.request.build_opener(handler)
    times = []
    for _ in range(count):
        started = time.perf_counter()
        with opener.open(url) as answer:
            answer.read()
        times.append(time.perf_counter() - started)
    return times


def _write_files(folder: Path, size: int) -> None:
    (folder / "big.bin").write_bytes(b"\0" * size)
    (folder / "small.txt").write_text("ok\n")


async def run(report: Report, *, smoke: bool) -> None:
    if shutil.which("curl") is None:
        print("   (curl not found: network benchmark skipped)")
        return
    size = (10 << 20) if smoke else BIG
    count = 30 if smoke else 100
    with tempfile.TemporaryDirectory() as folder, site(Path(folder)) as web:
        await asyncio.to_thread(_write_files, Path(folder), size)
        session = Session(Path(folder), AgentSettings(network_allow=("big.test",)))
        resolver = MappedResolver({"big.test": ("127.0.0.1", web.port)}, SystemResolver())
        channel = Channel(judge_for(session), resolver, lambda refusal: "refused")
        path = await channel.listen_unix()
        forwarder, port = await _forwarder(path)
        proxy = f"http://127.0.0.1:{port}"
        try:
            direct_url = f"http://127.0.0.1:{web.port}"
            rounds = 1 if smoke else 3
            direct = min([await _curl_seconds(f"{direct_url}/big.bin") for _ in range(rounds)])
            proxied = min(
                [await _curl_seconds("-x", proxy, "http://big.test/big.bin") for _ in range(rounds)]
            )
            plain = await asyncio.to_thread(_small_requests, f"{direct_url}/small.txt", None, count)
            through = await asyncio.to_thread(
                _small_requests, "http://big.test/small.txt", proxy, count
            )
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(forwarder.pid, signal.SIGKILL)
            await forwarder.wait()
            await channel.close()
    mb = size / (1 << 20)
    report.add(
        Figure(
            NAME,
            f"{mb:g} MB download through the forwarder and proxy, time / direct time",
            proxied / direct,
            "x",
            1.25,
            baseline=f"direct loopback download {direct * 1000:.0f} ms "
            f"({mb / direct:.0f} MB/s); through the proxy {proxied * 1000:.0f} ms "
            f"({mb / proxied:.0f} MB/s)",
            note="at most 1.25x the time is at least 0.8x the throughput; best of "
            f"{rounds} with curl",
            ci=False,
        )
    )
    added = (statistics.median(through) - statistics.median(plain)) * 1000
    report.add(
        Figure(
            NAME,
            f"median time added per small request ({count}, a new connection each)",
            added,
            "ms",
            2.0,
            baseline=f"direct median {statistics.median(plain) * 1000:.2f} ms",
            note="urllib, forwarder and proxy on loopback",
            ci=False,
        )
    )
