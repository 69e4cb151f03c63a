"""The streamable-HTTP transport against a real SDK server on loopback (`http_server.py`): the
configured bearer header reaches it, its tools are listed and called through the gate, and a
server that answers 401 is "needs authorization" naming the server and what to set, never an
empty tool list."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kesi_lsp.core.approval import Choice
from kesi_lsp.core.mcp.listing import server_lines
from tests.core.approvers import Scripted
from tests.mcp.servers import until, wire

pytestmark = [pytest.mark.slow]

SERVER = str(Path(__file__).with_name("http_server.py"))
TOKEN = "t0k-loopback"


@pytest.fixture
async def loopback(tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a loopback MCP server that wants `Authorization: Bearer TOKEN`."""
    port_file = tmp_path / "port"
    process = await asyncio.create_subprocess_exec(sys.executable, SERVER, str(port_file), TOKEN)
    try:
        await until(lambda: process.returncode is not None or port_file.is_file())
        assert process.returncode is None, "the loopback MCP server exited"
        yield f"http://127.0.0.1:{port_file.read_text()}/mcp"
    finally:
        process.terminate()
        await asyncio.wait_for(process.wait(), 10)


async def test_a_loopback_server_is_listed_and_called_through_the_gate(
    loopback: str, tmp_path: Path
) -> None:
    approver = Scripted([Choice.ALLOW_ONCE])
    web = {"type": "http", "url": loopback, "headers": {"Authorization": f"Bearer {TOKEN}"}}
    wired = wire(tmp_path, {"web": web}, approver)
    try:
        await wired.group.wait_started()
        server = wired.group.servers["web"]
        assert server.state == "ready", server_lines(wired.group, "en")
        assert server_lines(wired.group, "en")[1] == "  tools: greet"
        result = await wired.call("mcp__web__greet", {"name": "KeSi"})
        assert not result.is_error and "Hello, KeSi" in result.text
        (asked,) = approver.commands
        assert asked.reason == 'MCP server web wants to run its tool greet with: {"name": "KeSi"}'
    finally:
        await wired.stop()


async def test_a_server_that_answers_401_needs_authorization_and_says_so(
    loopback: str, tmp_path: Path
) -> None:
    wired = wire(
        tmp_path, {"web": {"type": "http", "url": loopback}}, Scripted([Choice.ALLOW_ONCE])
    )
    try:
        await wired.group.wait_started()
        assert wired.group.servers["web"].state == "auth"
        (line,) = server_lines(wired.group, "en")
        assert line.startswith(f"MCP web (user settings, {loopback}): needs authorization")
        assert "headers" in line
        refused = await wired.call("mcp__web__greet", {"name": "KeSi"})
        assert refused.is_error and "asks for authorization (HTTP 401)" in refused.text
        assert 'mcpServers.web.headers = {"Authorization": "Bearer <token>"}' in refused.text
    finally:
        await wired.stop()
