"""Secrets never leave, over the real wire in every LSP client preset (issue 29): a command
prints an Anthropic-format key and a GitHub token, and the model writes a fine-grained GitHub
token into a command of its own; the requests the scripted Messages API received, the saved
conversation, everything the editor was sent (`kesi/stream`, progress, log and shown
messages), the audit log and the server's log file hold only `[redacted: …]` markers.
A conversation saved with a raw secret (by a KeSi before redaction) is redacted when the next
server loads it: the model request and the file on disk no longer hold it.

The server is the real one over pipes (a `kesi-lsp` process for the log file), the real
`anthropic` SDK against the scripted Messages API.
"""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.core.persistence import ConversationStore, state_directory
from kesi_lsp.core.session import Session
from kesi_lsp.core.settings.agent import AgentSettings
from kesi_lsp.scripted_api import reply, script
from tests.leaks import (
    ALLOW,
    ECHOED,
    GITHUB,
    MARKERS,
    assert_only_markers,
    leaky,
    leaky_script,
)
from tests.lsp.clients import PRESETS, Editor, kesi_client
from tests.lsp.helpers import api_env, ask_and_wait
from tests.lsp.servers import ServerChoice, Subprocess
from tests.plugins.scripted_api import StartServer

pytestmark = pytest.mark.e2e

OPTIONS = {"kesi": {"locale": "en", "permissions": {"allow": ALLOW}}}


def saved_file(project: Path) -> Path:
    directory = state_directory(os.environ)
    assert directory is not None and "kesi-test-state-" in str(directory)  # never the real home
    return ConversationStore(directory).file_for(project.resolve())


def wire(editor: Editor) -> str:
    """Everything the server sent the editor, as text."""
    return "\n".join(f"{method} {params!r}" for method, params in editor.timeline)


async def audit_file(editor: Editor) -> tuple[list[str], str]:
    """`kesi.audit`'s lines, and the audit file's text."""
    listed = await editor.command("kesi.audit", {})
    assert listed["enabled"] is True and listed["path"], listed
    raw = await asyncio.to_thread(Path(listed["path"]).read_text, encoding="utf-8")
    return listed["lines"], raw


async def leak_and_look(
    preset: str, project: Path, api: Any, server: ServerChoice = None
) -> tuple[Editor, list[str], str]:
    async with kesi_client(
        preset, [leaky(project)], env=api_env(api), init_options=OPTIONS, server=server
    ) as editor:
        await ask_and_wait(editor, "Are the keys set?")
        lines, raw = await audit_file(editor)
    return editor, lines, raw


@pytest.mark.parametrize("preset", list(PRESETS))
async def test_a_printed_key_and_token_leave_only_as_markers(
    preset: str, project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(leaky_script())
    editor, lines, raw = await leak_and_look(preset, project, api)

    requests = json.dumps([r.body for r in api.requests])
    saved = await asyncio.to_thread(saved_file(project).read_text, encoding="utf-8")
    sent = wire(editor)
    for where, text in [("the model requests", requests), ("the saved conversation", saved)]:
        assert_only_markers(where, text)
        for marker in MARKERS:
            assert marker in text, where
    assert_only_markers("the editor's messages", sent)
    assert_only_markers("the audit log", raw + "\n".join(lines))
    (echoed,) = [line for line in lines if "echo deploying" in line]
    assert ECHOED in echoed
    if "stream" in str(editor.capabilities.experimental):  # KeSi's clients: the last lines
        assert all(marker in sent for marker in MARKERS)


@pytest.mark.subprocess
async def test_the_servers_log_file_holds_only_markers(
    project: Path, tmp_path: Path, scripted_api: StartServer
) -> None:
    """`-v` logs every message the server sends and receives: the log file holds the stream
    (the command's output) and the model's command, as markers."""
    log_file = tmp_path / "kesi.log"
    api = scripted_api(leaky_script())
    server = Subprocess(args=("-v", "--log-file", str(log_file)))
    await leak_and_look("neovim+kesi", project, api, server)
    logged = await asyncio.to_thread(log_file.read_text, encoding="utf-8")
    assert_only_markers("the log file", logged)
    assert all(marker in logged for marker in MARKERS)


def save_with_a_raw_secret(project: Path) -> Path:
    """The folder's conversation saved as a KeSi before redaction saved it: a raw token."""
    old = Session(root=project.resolve(), settings=AgentSettings(locale="en"))
    saved = saved_file(project)
    store = ConversationStore(saved.parent)
    store.open(old)
    old.history.extend(
        [
            {"role": "user", "content": "What is in leak.txt?"},
            {"role": "assistant", "content": [{"type": "text", "text": f"It holds {GITHUB}."}]},
        ]
    )
    store.checkpoint(old, False)
    assert store.flush()
    assert GITHUB in saved.read_text(encoding="utf-8")
    return saved


async def test_a_conversation_saved_with_a_raw_secret_is_redacted_when_loaded(
    project: Path, scripted_api: StartServer
) -> None:
    saved = save_with_a_raw_secret(project)

    api = scripted_api(script(reply("Noted.", expect={"message_count": 3})))
    async with kesi_client("vscode+kesi", [project], env=api_env(api), init_options=OPTIONS) as c:
        done = await c.run("kesi.ask", {"prompt": "And now?"})
        assert done["status"] == "done", done
        first = c.stream(done["runId"])[0]
        assert first["notice"] == "resume", first
    (request,) = api.requests
    sent = json.dumps(request.body)
    assert GITHUB not in sent and "It holds [redacted: GitHub token]." in sent
    on_disk = await asyncio.to_thread(saved.read_text, encoding="utf-8")
    assert GITHUB not in on_disk and "[redacted: GitHub token]" in on_disk
