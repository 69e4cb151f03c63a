"""The forwarder's start, the network's cost to every sandboxed command (bench/network.py).

With the network on, the forwarder starts in front of each sandboxed command, most of which
never connect: a sandboxed `true` in the real bubblewrap sandbox with a proxy socket bound in
(the forwarder runs) against the same with the network off, rounds alternating, medians.
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

from bench.report import Figure, Report
from kesi_lsp.core.errors import SandboxUnavailableError
from kesi_lsp.core.network.access import judge_for
from kesi_lsp.core.network.addresses import SystemResolver
from kesi_lsp.core.network.proxy import Channel
from kesi_lsp.core.sandbox import NetworkBridge, Sandbox, children
from kesi_lsp.core.sandbox.selection import select_sandbox
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings

NAME = "network"


async def _seconds(sandbox: Sandbox, root: Path, bridge: NetworkBridge | None) -> float:
    argv = sandbox.argv("true", root, bridge)
    env = sandbox.environment(os.environ, root)
    started = time.perf_counter()
    proc = await children.start(argv, env=env, cwd=root, watches_itself=True)
    if await proc.wait() != 0:
        raise RuntimeError(f"the sandboxed `true` failed: {argv}")
    return time.perf_counter() - started


async def forwarder_start(report: Report, folder: Path, smoke: bool) -> None:
    try:
        sandbox = select_sandbox("bubblewrap", folder, os.environ)
    except SandboxUnavailableError as exc:
        print(f"   (no bubblewrap sandbox: the forwarder's start not measured: {exc})")
        return
    channel = Channel(judge_for(Session(folder, AgentSettings())), SystemResolver(), str)
    bridge = NetworkBridge(socket_path=await channel.listen_unix())
    rounds = 7 if smoke else 21
    off, on = [], []
    try:
        for _ in range(rounds):
            off.append(await _seconds(sandbox, folder, None))
            on.append(await _seconds(sandbox, folder, bridge))
    finally:
        await channel.close()
    plain, forwarded = statistics.median(off), statistics.median(on)
    report.add(
        Figure(
            NAME,
            "a sandboxed `true` with the network on (the forwarder starts) / off",
            forwarded / plain,
            "x",
            1.25,
            baseline=f"network off {plain * 1000:.0f} ms, on {forwarded * 1000:.0f} ms "
            f"(+{(forwarded - plain) * 1000:.0f} ms)",
            note=f"medians of {rounds}, alternating; bubblewrap, the guard and the shell included",
        )
    )
