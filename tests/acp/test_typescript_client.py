"""A second, independent implementation drives `kesi-lsp acp`: the TypeScript SDK
(`@agentclientprotocol/sdk`, the one Zed's own examples and Gemini CLI use), run by Node from
tests/acp/node (its package.json and package-lock.json are committed; `npm ci` installs them
on first use). Without Node the tests are skipped, except under KESI_CI=1, where a missing
Node is a failure: CI must prove the second client.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.scripted_api import reply, script, stall_after
from tests.acp.conftest import FIXED
from tests.acp.editor import agent_env
from tests.acp.scripts import DONE, FIX_SCRIPT
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

NODE_DIR = Path(__file__).with_name("node")


@pytest.fixture(scope="session")
def node_client() -> list[str]:
    """`node client.mjs`, with the SDK installed from the committed lock file."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        if os.environ.get("KESI_CI") == "1":
            pytest.fail("Node.js and npm are needed for the TypeScript ACP client test")
        pytest.skip("Node.js is not installed (apt-get install nodejs npm)")
    if not (NODE_DIR / "node_modules" / "@agentclientprotocol" / "sdk").is_dir():
        done = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=NODE_DIR,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"npm ci failed:\n{done.stdout}\n{done.stderr}"
    return [node, str(NODE_DIR / "client.mjs")]


async def run_client(node_client: list[str], scenario: str, cwd: Path, api: Any) -> dict[str, Any]:
    process = await asyncio.create_subprocess_exec(
        *node_client,
        scenario,
        str(cwd),
        sys.executable,
        "-m",
        "kesi_lsp",
        "acp",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=agent_env(api),
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode == 0, f"{out.decode()}\n{err.decode()[-3000:]}"
    seen: dict[str, Any] = json.loads(out.decode().strip().splitlines()[-1])
    return seen


async def test_the_typescript_sdk_fixes_a_failing_test(
    node_client: list[str], project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(FIX_SCRIPT)
    seen = await run_client(node_client, "fix", project, api)
    assert seen["protocolVersion"] == 1
    assert seen["promptCapabilities"]["embeddedContext"] is True
    assert seen["stops"] == ["end_turn"]
    assert (project / "calc.py").read_text() == FIXED
    assert seen["writes"] == [str(project / "calc.py")]
    assert len(seen["asked"]) == 2  # the edit, then pytest
    kinds = [u.get("kind") for u in seen["updates"] if u["sessionUpdate"] == "tool_call"]
    assert kinds == ["read", "edit", "execute"]
    said = "".join(
        u["content"]["text"]
        for u in seen["updates"]
        if u["sessionUpdate"] == "agent_message_chunk" and "_meta" not in u
    )
    assert said.endswith(DONE)
    assert any(u["sessionUpdate"] == "usage_update" for u in seen["updates"])


async def test_the_typescript_sdk_cancels_and_goes_on(
    node_client: list[str], project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(
            stall_after(6, "Let me think about this for a long while."),
            reply("Ready.", expect={"last_user_text_contains": "next task"}),
        )
    )
    seen = await run_client(node_client, "cancel", project, api)
    assert seen["stops"] == ["cancelled", "end_turn"]
