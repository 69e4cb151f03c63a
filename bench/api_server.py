"""The scripted Messages API in its own process, stamping the moment each SSE event leaves.

The latency benchmarks compare "the server wrote this event" with "the client saw it". Both
sides read `time.monotonic()`, which on Linux is the system-wide CLOCK_MONOTONIC, so stamps
taken in different processes are comparable. The server runs in a process of its own so that
its work (and its GIL) does not slow the client being measured, or the other way round.

    python -m bench.api_server SCRIPT.json OUT.json

prints its base URL on one line, serves until its stdin closes (or says "stop"), then writes
OUT.json: every SSE event sent (stamp, request number, event name, text of a text delta) and a
summary of every request (usage, problems, the tool results it carried).
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kesi_lsp.scripted_api import Script, ScriptedServer, SentEvent, as_script


class EventLog:
    """The server's `on_event_sent` hook: (stamp, request number, event name, text of a text
    delta) for every SSE event, stamped right after it was flushed."""

    def __init__(self) -> None:
        self.sent: list[tuple[float, int, str, str]] = []

    def __call__(self, event: SentEvent) -> None:
        delta = event.data.get("delta")
        text = ""
        if event.name == "text_delta" and isinstance(delta, Mapping):
            text = str(delta.get("text", ""))
        self.sent.append((event.sent_at, event.request.number, event.name, text))


def _results(body: Any) -> list[dict[str, Any]]:
    messages = body.get("messages") if isinstance(body, dict) else None
    if not messages:
        return []
    content = messages[-1].get("content")
    if messages[-1].get("role") != "user" or not isinstance(content, list):
        return []
    out = []
    for block in content:
        if isinstance(block, dict) and block.get("type") == "tool_result":
            text = block.get("content")
            text = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
            out.append(
                {
                    "id": block.get("tool_use_id"),
                    "chars": len(text),
                    "bytes": len(text.encode("utf-8")),
                    "lines": len(text.splitlines()),
                    "is_error": bool(block.get("is_error")),
                    "head": text[:300],
                    "tail": text[-300:],
                }
            )
    return out


def summary(server: ScriptedServer, log: EventLog) -> dict[str, Any]:
    """What the benchmarks read back: events, per-request usage, problems, tool results."""
    requests = []
    for r in server.requests:
        usage = r.usage
        requests.append(
            {
                "number": r.number,
                "label": r.label,
                "status": r.status,
                "arrived": r.arrived,
                "problems": r.problems,
                "usage": None
                if usage is None
                else {
                    "input_tokens": usage.input_tokens,
                    "output_tokens": usage.output_tokens,
                    "cache_creation_input_tokens": usage.cache_creation_input_tokens,
                    "cache_read_input_tokens": usage.cache_read_input_tokens,
                },
                "results": _results(r.body),
            }
        )
    return {"events": log.sent, "requests": requests, "problems": server.problems}


def main(argv: list[str]) -> int:
    script_path, out_path = Path(argv[0]), Path(argv[1])
    script = as_script(json.loads(script_path.read_text(encoding="utf-8")))
    log = EventLog()
    server = ScriptedServer(script, on_event_sent=log).start()
    sys.stdout.write(server.base_url + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        if line.strip() == "stop":
            break
    out_path.write_text(json.dumps(summary(server, log)), encoding="utf-8")
    server.stop()
    return 0


@dataclass
class ApiProcess:
    """A running `bench.api_server`; `finish()` stops it and returns its summary."""

    proc: asyncio.subprocess.Process
    base_url: str
    out: Path

    @staticmethod
    def _prepare(script: Script, workdir: Path) -> tuple[Path, Path]:
        workdir.mkdir(parents=True, exist_ok=True)
        script_file = workdir / "script.json"
        script_file.write_text(script.dumps(), encoding="utf-8")
        return script_file, workdir / "api-summary.json"

    @classmethod
    async def start(cls, script: Script, workdir: Path) -> ApiProcess:
        script_file, out = await asyncio.to_thread(cls._prepare, script, workdir)
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bench.api_server",
            str(script_file),
            str(out),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None
        line = await asyncio.wait_for(proc.stdout.readline(), 30)
        return cls(proc, line.decode().strip(), out)

    async def finish(self) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"stop\n")
        await self.proc.stdin.drain()
        self.proc.stdin.close()
        await asyncio.wait_for(self.proc.wait(), 30)
        text = await asyncio.to_thread(self.out.read_text, encoding="utf-8")
        data: dict[str, Any] = json.loads(text)
        return data


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
