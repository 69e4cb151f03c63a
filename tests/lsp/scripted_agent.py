"""`kesi-lsp` with a scripted agent instead of the model loop, for adapter tests.

The language server is the real one (`create_server` + `serve`); only the runner differs: it
plays a JSON list of steps through the same seams the core loop uses (the workspace view,
the permission gate, the event sink). That makes the editor-side races of design §2.7 exact:
a test can hold a run at a chosen point and type into the buffer right there.

    python -m tests.lsp.scripted_agent STEPS.json

Steps (each a JSON object):
    {"do": "text", "text": "..."}                 a text delta
    {"do": "read", "path": "a.py"}                read through the view, remember the text
    {"do": "edit", "path": "a.py", "old": "x", "new": "y"}
        replace `old` in the text last read (or read now) and deliver it; the outcome is the
        ToolFinished summary: "applied once|session", "rejected" or "failed: <reason>"
    {"do": "write", "path": "b.py", "content": "..."}   create/overwrite through the view
    {"do": "command", "command": "pytest -q"}     ask the gate; summary "allowed" / the refusal
    {"do": "wait", "seconds": 1.5}                sleep (cancellable)
    {"do": "wait_file", "path": "go", "seconds": 30}   sleep until the file exists
    {"do": "finish", "status": "failed", "text": "..."}   end now with this status
    {"do": "system", "command": "echo hi"}       run a shell command that inherits the server's
                                                  stdin/stdout (what a careless library might do)
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from kesi_lsp.core.approval import Allowed
from kesi_lsp.core.cost.meter import Usage
from kesi_lsp.core.events import (
    RunFinished,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnStarted,
    UsageReported,
)
from kesi_lsp.core.tools.context import ToolContext
from kesi_lsp.core.workspace import DeliveryStatus, FileChange


class ScriptedRunner:
    def __init__(self, steps: list[dict[str, Any]]) -> None:
        self.steps = steps

    async def __call__(self, ctx: ToolContext, prompt: str) -> RunFinished:
        root = ctx.session.root
        read: dict[Path, str] = {}
        ctx.emit(TurnStarted(1, ctx.session.settings.max_turns))
        usage = Usage(requests=1, input_tokens=100, output_tokens=20, cost_usd=0.0002)
        try:
            for index, step in enumerate(self.steps):
                summary = await self._step(ctx, root, read, step, f"toolu_{index}")
                if isinstance(summary, RunFinished):
                    return summary
        except asyncio.CancelledError:
            ctx.emit(TextDelta(""))
            return RunFinished("cancelled", "interrupted", usage)
        ctx.session.usage = Usage(
            requests=ctx.session.usage.requests + 1,
            input_tokens=ctx.session.usage.input_tokens + 100,
            output_tokens=ctx.session.usage.output_tokens + 20,
            cost_usd=ctx.session.usage.cost_usd + 0.0002,
        )
        ctx.emit(UsageReported(usage, usage, ctx.session.usage))
        return RunFinished("done", prompt, usage)

    async def _step(
        self, ctx: ToolContext, root: Path, read: dict[Path, str], step: dict[str, Any], use_id: str
    ) -> str | RunFinished | None:
        kind = step["do"]
        if kind == "text":
            ctx.emit(TextDelta(step["text"]))
            return None
        if kind == "wait":
            await asyncio.sleep(step["seconds"])
            return None
        if kind == "wait_file":
            for _ in range(int(step.get("seconds", 30) / 0.02)):
                if (root / step["path"]).exists():
                    break
                await asyncio.sleep(0.02)
            return None
        if kind == "system":
            os.system(step["command"])  # noqa: ASYNC221 - deliberately careless, see above
            return None
        if kind == "finish":
            return RunFinished(step["status"], step["text"], Usage())
        ctx.emit(ToolStarted(use_id, kind, {k: v for k, v in step.items() if k != "do"}))
        summary = await self._tool(ctx, root, read, step)
        ctx.emit(
            ToolFinished(
                use_id, kind, summary.startswith(("failed", "rejected", "refused")), summary
            )
        )
        return summary

    async def _tool(
        self, ctx: ToolContext, root: Path, read: dict[Path, str], step: dict[str, Any]
    ) -> str:
        kind = step["do"]
        if kind == "command":
            answer = await ctx.gate.authorize_command(step["command"])
            return "allowed" if isinstance(answer, Allowed) else f"refused: {answer.message}"
        path = (root / step["path"]).resolve()
        if kind == "read":
            current = await ctx.view.read_text(path)
            read[path] = current.text
            ctx.session.reads[path] = hashlib.sha256(current.text.encode()).hexdigest()
            return f"read version {current.version}, unsaved {current.unsaved}"
        if kind == "edit":
            before = read[path] if path in read else (await ctx.view.read_text(path)).text
            after = before.replace(step["old"], step["new"], 1)
        else:
            before = read.get(path) if path.exists() else None
            if path.exists() and before is None:
                before = (await ctx.view.read_text(path)).text
            after = step["content"]
        change = FileChange(kind + "_file", path, path.relative_to(root).as_posix(), before, after)
        delivery = await ctx.view.deliver(change, review=ctx.gate.needs_review(path))
        if delivery.status is DeliveryStatus.APPLIED:
            read[path] = after
            if delivery.choice.value == "session":
                ctx.gate.remember_file(path)
            return f"applied {delivery.choice.value}"
        if delivery.status is DeliveryStatus.REJECTED:
            return "rejected"
        return f"failed: {delivery.reason}"


def main() -> int:
    steps = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    from kesi_lsp.logs import configure_logging
    from kesi_lsp.lsp.app import create_server, serve_stdio

    configure_logging(verbose=False, log_file=None)
    return serve_stdio(create_server(runner=ScriptedRunner(steps)))


if __name__ == "__main__":
    raise SystemExit(main())
