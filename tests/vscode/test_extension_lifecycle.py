"""The extension in a real VS Code (code-server): it starts kesi-lsp, says so, and explains
plainly when it cannot."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.session import OpenVSCode, VSCode

pytestmark = [pytest.mark.editor, pytest.mark.slow]

PALETTE = [
    "KeSi: Fix This",
    "KeSi: Ask",
    "KeSi: Cancel",
    "KeSi: Reset",
    "KeSi: Show Cost",
    "KeSi: Show Permissions",
    "KeSi: Revoke Permissions",
    "KeSi: Compact Conversation",
    "KeSi: Show Output",
    "KeSi: Show Server Log",
    "KeSi: Restart Server",
    "KeSi: Show Changes",
    "KeSi: Undo Last Run",
    "KeSi: Keep All Changes",
    "KeSi: MCP servers",
    "KeSi: Show Background Tasks",
    "KeSi: Show Audit Log",
    "KeSi: Go to the Question",
]


def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    return folder


def test_starts_the_server_and_offers_every_command(vscode: OpenVSCode, tmp_path: Path) -> None:
    session = vscode(project(tmp_path), settings={"kesi.trace.server": "verbose"})
    wb = session.workbench

    assert re.fullmatch(r"KeSi \$0\.0000", wb.status_text()), wb.status_text()

    wb.page.keyboard.press("F1")
    box = wb.page.locator(".quick-input-widget input")
    rows = wb.page.locator(".quick-input-list .monaco-list-row")
    # The palette draws only the rows in view, so each command is looked up by its title.
    for title in PALETTE:
        box.fill(f">{title}")
        rows.filter(has_text=title).first.wait_for()
    wb.page.keyboard.press("Escape")

    # The server was told who we are: the experimental capability and the kesi.* settings.
    wb.wait_until(
        lambda: "Sending request 'initialize" in trace(session), 30_000, "the initialize trace"
    )
    params = initialize_params(trace(session))
    # Everything this client handles (design.md §2.2): the stream, saving, the plan view and
    # the editor's diagnostics, pending hunks drawn by the client itself (no Problems for
    # them), and reviewEdit: the default review is the diff editor.
    assert params["capabilities"]["experimental"]["kesi"] == {
        "stream": True,
        "saveDocuments": True,
        "plan": True,
        "diagnostics": True,
        "hunks": True,
        "reviewEdit": True,
    }
    assert params["initializationOptions"]["kesi"] == {
        "model": "claude-haiku-4-5",
        "maxTokens": 8192,
        "maxTurns": 20,
        "maxToolFailures": 3,
        "commandTimeout": 120,
        "sandbox": "auto",
        "commandMemoryLimit": 4096,
        "sandboxNetwork": "ask",
        "sandboxNetworkAllow": [],
        "sandboxNetworkDeny": [],
        "promptCaching": True,
        "contextTrimming": True,
        "contextBudget": 50000,
        "compaction": True,
        "streamIdleTimeout": 60,
        "searchMaxTurns": 10,
        "locale": "en",
        "changeSets": True,
        "runEndMessage": True,
        "respectGitignore": True,
        "maxMessageMegabytes": 64,
        "approvals": "ask",
        "permissions": {},
        "passEnv": [],
        "auditLog": True,
        "taskTimeout": 1800,
        "mcpServers": {},
    }
    assert params["capabilities"]["window"]["workDoneProgress"] is True
    assert params["capabilities"]["workspace"]["workspaceEdit"]["changeAnnotationSupport"]

    wb.run_command("KeSi: Show Output")
    wb.wait_until(lambda: wb.output_channel_selected() == "KeSi", 15_000, "the KeSi channel")


def test_a_missing_server_is_explained_not_hidden(vscode: OpenVSCode, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "kesi-lsp"
    session = vscode(
        project(tmp_path), settings={"kesi.serverPath": str(missing)}, wait_for_server=False
    )
    wb = session.workbench
    expected = f"kesi.serverPath is {missing}, which is not an executable file."

    toast = wb.notification(expected)
    assert "Open Settings" in toast.inner_text()
    wb.wait_until(lambda: wb.status_text() == "KeSi", 15_000, "the warning status")
    toast.locator(".codicon-notifications-clear").click()

    # The palette still has KeSi's commands, and they say what is wrong instead of
    # "command not found".
    wb.run_command("KeSi: Fix This")
    wb.notification(expected)
    assert not any("not found" in text for text in wb.notification_texts())


def trace(session: VSCode) -> str:
    return session.output_channel("KeSi Server Trace")


def initialize_params(text: str) -> dict[str, Any]:
    """The params of the traced `initialize` request (vscode-languageclient's verbose trace)."""
    start = text.index("Sending request 'initialize")
    offset = text.index("Params: ", start) + len("Params: ")
    value, _ = json.JSONDecoder().raw_decode(text[offset:])
    params: dict[str, Any] = value
    return params
