"""Secrets never leave, over ACP (issue 29): `kesi-lsp acp` as a real process over its stdio,
the real `anthropic` SDK against the scripted Messages API. A command prints an
Anthropic-format key and a GitHub token, and the model writes a fine-grained GitHub token into
a command of its own: every byte the agent wrote to the client (session/update texts, tool
cards, permission questions), the requests the Messages API received, the audit log and the
agent's log file and stderr hold only `[redacted: …]` markers.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest

from kesi_lsp.core import AuditLog, audit_directory
from tests.acp.editor import EditorClient, acp_agent, agent_env, until
from tests.leaks import ALLOW, ECHOED, MARKERS, assert_only_markers, leaky, leaky_script
from tests.plugins.scripted_api import StartServer

pytestmark = [pytest.mark.e2e, pytest.mark.subprocess]
META = {"locale": "en", "permissions": {"allow": ALLOW}}


def audit_file(folder: Path) -> Path:
    directory = audit_directory(os.environ)
    assert directory is not None and "kesi-test-state-" in str(directory)  # never the real home
    return AuditLog(directory).file_for(folder.resolve())


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return ""


async def test_updates_requests_audit_and_log_hold_only_markers(
    project: Path, tmp_path: Path, scripted_api: StartServer
) -> None:
    log_file = tmp_path / "kesi-acp.log"
    api = scripted_api(leaky_script())
    client = EditorClient(answer=lambda call, options: "allow-once")
    args = ("-v", "--log-file", str(log_file))
    async with acp_agent(agent_env(api), client, meta=META, args=args) as agent:
        done = await agent.prompt(await agent.start(leaky(project)), "Are the keys set?")
    assert done.stop_reason == "end_turn"

    wire = bytes(agent.stdout).decode("utf-8")
    assert_only_markers("the agent's output", wire)
    assert all(marker in wire for marker in MARKERS)  # the command's output was shown
    updates = json.dumps(client.updates, ensure_ascii=False)
    assert ECHOED in updates  # the model's command, on its card
    requests = json.dumps([r.body for r in api.requests])
    assert_only_markers("the model requests", requests)
    assert all(marker in requests for marker in MARKERS)

    audit = audit_file(project)
    await until(lambda: ECHOED in _text(audit))
    assert_only_markers("the audit log", _text(audit))
    logged = await asyncio.to_thread(log_file.read_text, encoding="utf-8")
    assert "session " in logged  # the log file was written
    assert_only_markers("the log file", logged)
    assert_only_markers("stderr", bytes(agent.stderr).decode("utf-8", "replace"))
