"""What several benchmarks share: the server command, its environment, run bookkeeping."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sys
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.lsp_client import LspClient

FAKE_KEY = "sk-ant-bench-not-a-real-key"
REPO = Path(__file__).resolve().parents[1]


def kesi_argv() -> list[str]:
    """The language server as editors start it (`kesi-lsp`), through this Python."""
    return [sys.executable, "-m", "kesi_lsp"]


_STATE = Path(tempfile.gettempdir()) / f"kesi-bench-state-{os.getpid()}"
atexit.register(shutil.rmtree, _STATE, True)


def server_env(base_url: str | None) -> dict[str, str]:
    """The process environment, pointed at a scripted API (never a real key), saving its
    conversations in a scratch state directory (never the user's own)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    env["XDG_STATE_HOME"] = str(_STATE)
    if base_url is not None:
        env["ANTHROPIC_API_KEY"] = FAKE_KEY
        env["ANTHROPIC_BASE_URL"] = base_url
    return env


@contextmanager
def scratch(prefix: str, base: Path | None = None) -> Iterator[Path]:
    """A temporary folder (under `base`, else the system's) removed afterwards, whatever happens."""
    path = Path(tempfile.mkdtemp(prefix=f"kesi-bench-{prefix}-", dir=base)).resolve()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@dataclass
class RunLog:
    """The `kesi/stream` notifications and the end of one run, with arrival stamps."""

    texts: list[tuple[float, str]] = field(default_factory=list)
    events: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    finished: tuple[float, dict[str, Any]] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


class Runs:
    """Sorts a client's run notifications by runId."""

    def __init__(self, client: LspClient) -> None:
        self.logs: dict[str, RunLog] = {}
        client.handlers["kesi/stream"] = self.on_stream
        client.handlers["kesi/runFinished"] = self.on_finished

    def log(self, run_id: str) -> RunLog:
        return self.logs.setdefault(run_id, RunLog())

    def on_stream(self, stamp: float, params: Mapping[str, Any]) -> None:
        log = self.log(str(params["runId"]))
        if params.get("kind") == "text":
            log.texts.append((stamp, str(params.get("text", ""))))
        else:
            log.events.append((stamp, dict(params)))

    def on_finished(self, stamp: float, params: Mapping[str, Any]) -> None:
        log = self.log(str(params["runId"]))
        log.finished = (stamp, dict(params))
        log.done.set()

    async def ask(self, client: LspClient, prompt: str, *, seconds: float = 120) -> RunLog:
        """Start `kesi.ask` and wait for its `kesi/runFinished`."""
        started = await client.command("kesi.ask", {"prompt": prompt})
        log = self.log(str(started["runId"]))
        await asyncio.wait_for(log.done.wait(), seconds)
        return log


def memory_folder(needed_bytes: int) -> Path | None:
    """A RAM-backed folder (tmpfs) with room for `needed_bytes`, if the system has one."""
    shm = Path("/dev/shm")
    try:
        if shm.is_dir() and shutil.disk_usage(shm).free > needed_bytes * 1.5:
            return shm
    except OSError:
        pass
    return None


def rss_mb(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of a process in MB, from /proc (0 when unreadable)."""
    current = peak = 0.0
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    current = int(line.split()[1]) / 1024
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024
    except OSError:
        pass
    return current, peak


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and of its waited-for children (user + system), in seconds."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    return ticks / os.sysconf("SC_CLK_TCK")
