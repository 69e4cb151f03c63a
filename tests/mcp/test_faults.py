"""MCP servers that go wrong in every way the issue lists, side by side with a good one: each
says why, none takes the others (or the session) down, and the model gets data it can use."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from kesi_lsp.core.approval import Choice
from kesi_lsp.core.mcp.listing import server_lines
from kesi_lsp.core.mcp.server import McpServer
from tests.core.approvers import AlwaysAllow
from tests.mcp.servers import Wired, fault, until, wire

pytestmark = [pytest.mark.slow]

BAD = {
    "missing": {"command": "no-such-mcp-server-anywhere"},
    "exits": fault("exit"),
    "garbage": fault("garbage"),
    "hangs": fault("hang"),
    "hangs_list": fault("hang_list"),
    "floods": fault("flood"),
}


@pytest.fixture
def short_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """initialize and tools/list bounded at 4 s, so a hang is a reason in seconds."""
    monkeypatch.setattr(McpServer, "init_seconds", 4.0)
    monkeypatch.setattr(McpServer, "list_seconds", 4.0)


@pytest.fixture
async def everything(tmp_path: Path, short_bounds: None) -> AsyncIterator[Wired]:
    """The good fault server among every bad one."""
    log = tmp_path / "fault.log"
    wired = wire(tmp_path, {"fault": fault("ok", log), **BAD}, AlwaysAllow(Choice.ALLOW_SESSION))
    await wired.group.wait_started()
    yield wired
    await wired.stop()


@pytest.fixture
async def good(tmp_path: Path) -> AsyncIterator[Wired]:
    """The good fault server alone, its messages logged in fault.log."""
    log = tmp_path / "fault.log"
    wired = wire(tmp_path, {"fault": fault("ok", log)}, AlwaysAllow(Choice.ALLOW_SESSION))
    await wired.group.wait_started()
    yield wired
    await wired.stop()


def lines_of(wired: Wired) -> str:
    return "\n".join(server_lines(wired.group, "en"))


async def test_one_bad_server_never_harms_the_others_and_each_says_why(
    everything: Wired,
) -> None:
    states = {name: s.state for name, s in everything.group.servers.items()}
    assert states == {
        "fault": "ready",
        "missing": "failed",
        "exits": "failed",
        "garbage": "failed",
        "hangs": "failed",
        "hangs_list": "failed",
        "floods": "failed",
    }
    said = lines_of(everything)
    assert "no-such-mcp-server-anywhere was not found" in said
    assert "exited at start (exit code 3); it said: fault: refusing to start" in said
    assert "wrote something that is not MCP: this is not JSON-RPC" in said
    assert "did not answer initialize within 4 s" in said
    assert "did not answer tools/list within 4 s" in said
    assert "flooded its output" in said
    result = await everything.call("mcp__fault__echo", {"text": "still here"})
    assert not result.is_error
    assert "echo: still here" in result.text


async def test_a_schema_the_api_refuses_is_left_out_by_name_and_the_rest_stay(
    good: Wired,
) -> None:
    tools, notices = good.group.offered()
    names = [t["name"] for t in tools]
    assert "mcp__fault__bad_schema" not in names
    assert names == sorted(names) and "mcp__fault__echo" in names
    assert len(notices) == 1 and "bad_schema is left out" in notices[0]
    assert "nonsense" in notices[0]
    assert good.group.offered()[1] == []  # said once
    assert good.group.offered()[0] == tools  # the same list, in the same order


async def test_results_are_untrusted_data_clipped_like_command_output(
    good: Wired,
) -> None:
    huge = await good.call("mcp__fault__huge", {})
    assert huge.text.startswith("[Result of the MCP tool huge of server fault: data from outside")
    assert len(huge.text) < 9000 and huge.text.rstrip().endswith("THE END")
    picture = await good.call("mcp__fault__picture", {})
    assert "[an image, image/png, 12 bytes]" in picture.text
    failed = await good.call("mcp__fault__fail", {})
    assert failed.is_error and "the tool failed on purpose" in failed.text


async def test_a_crash_mid_call_fails_that_call_with_the_reason_and_the_server_comes_back(
    good: Wired,
) -> None:
    server = good.group.servers["fault"]
    crashed = await good.call("mcp__fault__crash", {})
    assert crashed.is_error
    assert "stopped during the call" in crashed.text
    await until(lambda: server.restarts == 1 and server.state == "ready")
    again = await good.call("mcp__fault__echo", {"text": "back"})
    assert "echo: back" in again.text


async def test_cancel_sends_notifications_cancelled(good: Wired, tmp_path: Path) -> None:
    call = asyncio.ensure_future(good.call("mcp__fault__slow", {}))
    log = tmp_path / "fault.log"
    await until(lambda: '"slow"' in log.read_text())
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call
    messages = await until(
        lambda: [json.loads(x) for x in log.read_text().splitlines() if "cancelled" in x]
    )
    assert messages[0]["method"] == "notifications/cancelled"


async def test_list_changed_refreshes_the_tools_for_the_next_round(good: Wired) -> None:
    before = [t["name"] for t in good.group.offered()[0]]
    assert "mcp__fault__extra" not in before
    await good.call("mcp__fault__grow", {})
    server = good.group.servers["fault"]
    await until(lambda: any(t.name == "extra" for t in server.tools))
    after = [t["name"] for t in good.group.offered()[0]]
    assert "mcp__fault__extra" in after
