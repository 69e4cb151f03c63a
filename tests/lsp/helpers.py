"""Helpers the language-server tests share: pointing the server at the scripted Messages API,
waiting for a condition, reading the tool results a model request carried, and the headline
"fix this" scenario's project and arguments."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lsprotocol import types
from lsprotocol.converters import get_converter

TEST_CALC = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"
PYTEST = "python3 -m pytest -q"
FAILURE = "assert -1 == 5"


def api_env(server: Any) -> dict[str, str]:
    """The environment that points the server's SDK at the scripted Messages API `server`."""
    return {
        "ANTHROPIC_API_KEY": "sk-ant-test-not-a-real-key",
        "ANTHROPIC_BASE_URL": server.base_url,
    }


async def wait_for(condition: Callable[[], Any], seconds: float = 30) -> None:
    """Return as soon as `condition()` holds (checked every 20 ms); fail after `seconds`."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        await asyncio.sleep(0.02)


def tool_results(request: Any) -> list[dict[str, Any]]:
    """The tool_result blocks a request carried, in order."""
    return [
        block
        for message in request.body["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]


def result_text(block: dict[str, Any]) -> str:
    content = block["content"]
    return content if isinstance(content, str) else "".join(c["text"] for c in content)


def fix_this_args(project: Path) -> dict[str, Any]:
    """`kesi.fixThis` on calc.py's lines 1-2 with pytest's failure as the diagnostic."""
    diagnostic = types.Diagnostic(
        range=types.Range(
            start=types.Position(line=1, character=4), end=types.Position(line=1, character=16)
        ),
        message=f"test_add fails: {FAILURE}",
        severity=types.DiagnosticSeverity.Error,
        source="pytest",
    )
    return {
        "uri": (project / "calc.py").resolve().as_uri(),
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}},
        "diagnostics": [get_converter().unstructure(diagnostic)],
    }


async def ask_and_wait(editor: Any, prompt: str, uri: str | None = None) -> str:
    """Start a `kesi.ask` run and wait for its end the way the client can see it
    (`kesi/runFinished` for a client announcing `experimental.kesi`, else the "KeSi: done"
    message every client shows); the run's id."""
    argument = {"prompt": prompt, **({"uri": uri} if uri else {})}
    started = await editor.command("kesi.ask", argument)
    experimental = editor.capabilities.experimental
    if isinstance(experimental, dict) and "kesi" in experimental:
        done = await editor.wait_finished(started["runId"], 120)
        assert done["status"] == "done", done
    else:
        end = await editor.timeline.wait_shown("KeSi: ", 120)
        assert end.startswith("KeSi: done"), end
    return str(started["runId"])
