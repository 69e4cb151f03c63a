"""`kesi-lsp mcp list` and `kesi-lsp doctor --mcp-config`: each server started as a session would
start it, listed with its tools or why it failed; the exit status says whether all are ready."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mcp.servers import fault

pytestmark = [pytest.mark.subprocess, pytest.mark.slow]


def test_mcp_list_starts_each_server_and_says_what_it_offers_or_why_not(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    servers = {"fault": fault("ok"), "gone": {"command": "no-such-mcp-server"}}
    config.write_text(json.dumps({"mcpServers": servers}))
    done = subprocess.run(
        [sys.executable, "-m", "kesi_lsp", "mcp", "list", "--config", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("MCP fault (user settings, ") and lines[0].endswith(": ready")
    assert lines[1].startswith("  tools: crash, dangerous, echo, fail")
    assert "bad_schema" not in lines[1]
    assert any(line.startswith("  left out: bad_schema (") for line in lines)
    assert lines[-1].endswith("failed: the program no-such-mcp-server was not found (not on PATH)")


def test_a_malformed_file_is_said_and_nothing_starts(tmp_path: Path) -> None:
    config = tmp_path / "servers.json"
    config.write_text("{not json")
    done = subprocess.run(
        [sys.executable, "-m", "kesi_lsp", "mcp", "list", "--config", str(config)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout.startswith(f"{config}: Expecting property name")
