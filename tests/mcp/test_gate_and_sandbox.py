"""Every MCP call through the permission gate, and stdio servers inside the command sandbox."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

from kesi_lsp.core.approval import Choice
from kesi_lsp.core.permissions import describe_grants, grants_lines
from kesi_lsp.core.settings.parse import parse_settings
from tests.core.approvers import AlwaysAllow, Scripted
from tests.mcp.servers import FAULT_SERVER, bubblewrap, fault, until, wire

pytestmark = [pytest.mark.slow]

NEEDS_BWRAP = pytest.mark.skipif(
    shutil.which("bwrap") is None and not os.environ.get("KESI_CI"), reason="needs bwrap"
)


def rules(**lists: list[str]) -> object:
    return parse_settings({"permissions": lists}).settings


async def test_a_call_is_asked_with_server_tool_and_arguments_and_no_means_not_called(
    tmp_path: Path,
) -> None:
    log = tmp_path / "fault.log"
    approver = Scripted([Choice.DENY, Choice.ALLOW_SESSION])
    wired = wire(tmp_path, {"fault": fault("ok", log)}, approver)
    try:
        await wired.group.wait_started()
        refused = await wired.call("mcp__fault__echo", {"text": "hello"})
        assert refused.is_error and "refused this MCP tool call" in refused.text
        asked = approver.commands[0]
        assert asked.tool is not None and (asked.tool.server, asked.tool.tool) == ("fault", "echo")
        assert asked.reason == 'MCP server fault wants to run its tool echo with: {"text": "hello"}'
        assert "tools/call" not in log.read_text()  # a no: the server never saw the call
        allowed = await wired.call("mcp__fault__echo", {"text": "again"})
        assert "echo: again" in allowed.text
        again = await wired.call("mcp__fault__echo", {"text": "granted"})
        assert "echo: granted" in again.text
        assert len(approver.commands) == 2  # the session grant answered the third
        lines = grants_lines(describe_grants(wired.ctx.session), "en")
        assert lines[-1] == "Allowed MCP tools: mcp:fault:echo"
    finally:
        await wired.stop()


async def test_rules_allow_and_deny_with_wildcards_and_deny_beats_allow(tmp_path: Path) -> None:
    settings = rules(allow=["mcp:fault:*"], deny=["mcp__fault__fail", "mcp:fault:p*"])
    approver = AlwaysAllow()
    wired = wire(tmp_path, {"fault": fault("ok")}, approver, settings=settings)  # type: ignore[arg-type]
    try:
        await wired.group.wait_started()
        echoed = await wired.call("mcp__fault__echo", {"text": "by rule"})
        assert "echo: by rule" in echoed.text
        denied = await wired.call("mcp__fault__fail", {})
        assert denied.is_error and "permission rule mcp:fault:fail" in denied.text
        picture = await wired.call("mcp__fault__picture", {})
        assert "permission rule mcp:fault:p*" in picture.text
        assert approver.commands == []  # nothing was asked
    finally:
        await wired.stop()


async def test_the_red_line_applies_to_a_command_passed_in_the_arguments(tmp_path: Path) -> None:
    settings = rules(allow=["mcp:fault"])
    wired = wire(tmp_path, {"fault": fault("ok")}, AlwaysAllow(), settings=settings)  # type: ignore[arg-type]
    try:
        await wired.group.wait_started()
        blocked = await wired.call("mcp__fault__dangerous", {"command": "sudo rm -rf /"})
        assert blocked.is_error and "blocked by the safety rules" in blocked.text
        fine = await wired.call("mcp__fault__dangerous", {"command": "ls"})
        assert not fine.is_error
    finally:
        await wired.stop()


def test_malformed_servers_are_left_out_by_name_and_the_others_stay() -> None:
    parsed = parse_settings(
        {
            "mcpServers": {
                "good": {"command": "mcp-server-time"},
                "ws": {"type": "websocket", "url": "ws://x"},
                "noargs": {"command": "x", "args": "not a list"},
                "bad name!": {"command": "x"},
                "web": {"type": "http", "url": "https://example.com/mcp", "headers": {"A": "b"}},
            }
        }
    )
    assert [s.name for s in parsed.settings.mcp_servers] == ["good", "web"]
    said = "\n".join(parsed.problems)
    assert 'the MCP server ws is left out (unknown transport "websocket"' in said
    assert "the MCP server noargs is left out" in said and '"args" must be a list' in said
    assert "the MCP server bad name! is left out" in said
    whole = parse_settings({"mcpServers": ["not", "an", "object"]})
    assert whole.settings.mcp_servers == ()
    assert "expected an object of servers" in whole.problems[0]


@NEEDS_BWRAP
async def test_a_sandboxed_server_cannot_read_a_secret_in_home(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    secret = home / ".ssh" / "id_ed25519"
    secret.write_text("PLANTED-SECRET\n")
    workspace = tmp_path / "work"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("workspace text\n")
    environ = {**os.environ, "HOME": str(home)}
    sandbox = await bubblewrap(workspace, environ)
    assert sandbox.kind == "bubblewrap"
    wired = wire(
        workspace,
        {"fault": fault("ok")},
        AlwaysAllow(),
        sandbox=sandbox,
        environ=environ,
        settings=rules(allow=["mcp:fault"]),  # type: ignore[arg-type]
    )
    try:
        await until(lambda: wired.group.servers["fault"].state != "starting", 120)
        assert wired.group.servers["fault"].state == "ready"
        stolen = await wired.call("mcp__fault__read", {"path": str(secret)})
        assert "PLANTED-SECRET" not in stolen.text and stolen.is_error
        mine = await wired.call("mcp__fault__read", {"path": str(workspace / "notes.txt")})
        assert "workspace text" in mine.text
    finally:
        await wired.stop()


async def test_without_the_sandbox_the_same_read_succeeds(tmp_path: Path) -> None:
    """The sandbox test above can fail: unconfined, the server reads the planted file."""
    secret = tmp_path / "secret.txt"
    secret.write_text("PLANTED-SECRET\n")
    wired = wire(tmp_path, {"fault": fault("ok")}, AlwaysAllow())
    try:
        await wired.group.wait_started()
        read = await wired.call("mcp__fault__read", {"path": str(secret)})
        assert "PLANTED-SECRET" in read.text
    finally:
        await wired.stop()


@NEEDS_BWRAP
async def test_a_server_that_cannot_start_in_the_sandbox_says_why(tmp_path: Path) -> None:
    home = tmp_path / "home"
    hidden = home / "private"
    hidden.mkdir(parents=True)
    script = hidden / "server.py"
    shutil.copy(FAULT_SERVER, script)
    workspace = tmp_path / "work"
    workspace.mkdir()
    environ = {**os.environ, "HOME": str(home)}
    sandbox = await bubblewrap(workspace, environ)
    wired = wire(
        workspace,
        {"hidden": {"command": sys.executable, "args": ["-c", f"exec(open('{script}').read())"]}},
        AlwaysAllow(),
        sandbox=sandbox,
        environ=environ,
    )
    try:
        await until(lambda: wired.group.servers["hidden"].state != "starting", 120)
        server = wired.group.servers["hidden"]
        assert server.state == "failed"
        assert server.failure is not None and "private/server.py" in server.failure.detail
    finally:
        await wired.stop()
