"""Start-up stays light: the language server answers `initialize` without loading the SDK.

Importing the `anthropic` SDK takes a second or more; it is loaded in a worker thread by the
first run (`kesi_lsp.core.runs.agent`). A module-level import anywhere on the server's start-up path
would put that second back into every editor start (benchmark 4 measures the effect).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PROBE = """
import sys
from kesi_lsp.lsp.app import create_server
create_server()
heavy = ("anthropic", "mcp", "uvicorn", "starlette")
loaded = sorted(m for m in sys.modules if m.partition(".")[0] in heavy)
print(len(loaded), loaded[:5])
"""


@pytest.mark.subprocess
def test_building_the_server_does_not_import_the_sdk() -> None:
    """Nor the MCP SDK (1.4 s here; the sign-in commands once imported it at start-up)."""
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.startswith("0 "), done.stdout


ACP_PROBE = """
import asyncio, json, os, sys
from kesi_lsp.acp import app, transport

seen = []
send = transport.LineTransport.send

async def recording(self, message):
    machinery = ("kesi_lsp.core.runs.drive", "kesi_lsp.core.session", "kesi_lsp.acp.frontend")
    seen.append((message.get("id"), "anthropic" in sys.modules,
                 [m for m in machinery if m in sys.modules]))
    await send(self, message)

transport.LineTransport.send = recording

async def main():
    into, feed = os.pipe()
    reader, writer = await transport.open_streams(os.fdopen(into, "rb"), open(os.devnull, "wb"))
    request = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
               "params": {"protocolVersion": 1, "clientCapabilities": {}}}
    os.write(feed, json.dumps(request).encode() + b"\\n")
    environ = {"ANTHROPIC_API_KEY": "x"}
    serving = asyncio.ensure_future(app.serve_connection(reader, writer, environ))
    for _ in range(600):  # the preparation loads the SDK on its own, with no prompt
        await asyncio.sleep(0.1)
        if "kesi_lsp.core.loop" in sys.modules and "anthropic" in sys.modules:
            break
    os.close(feed)  # the client goes away
    await serving
    print(json.dumps({"sent": seen, "loaded": "anthropic" in sys.modules}))

asyncio.run(main())
"""


@pytest.mark.subprocess
def test_acp_answers_initialize_before_the_sdk_then_loads_it_unasked() -> None:
    """`kesi-lsp acp` (issue 33): `initialize` is answered before the model SDK is imported,
    and the import starts right after that answer, before any prompt (a one-shot client sends
    its prompt at once, so the SDK's seconds of imports overlap its session's set-up). Nor
    is the run machinery loaded before that answer: the runtime, sessions and runs come after
    it (about 70 ms of imports here, `KesiAgent`)."""
    done = subprocess.run(
        [sys.executable, "-c", ACP_PROBE], capture_output=True, text=True, check=True, timeout=180
    )
    said = json.loads(done.stdout.splitlines()[-1])
    assert said["sent"][0] == [1, False, []], said
    assert said["loaded"], said
