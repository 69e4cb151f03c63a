"""An error answer carries a sentence the editor can show, never a traceback (issue 24).

Editors show an error answer's message as is (VS Code in a notification, Neovim with
`vim.notify`), and some show `data` too. pygls answers a handler's unexpected exception with
the exception's text and its traceback in `data`; `kesi.reset {"uri": "file:///%00"}` was one:
no path holds a NUL byte, and looking one up raised ValueError deep in pathlib.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pygls.exceptions import JsonRpcException

from kesi_lsp.lsp.app import create_server
from kesi_lsp.lsp.server import KesiServer
from kesi_lsp.testing import InProcess, connected
from tests.lsp.clients import new_editor
from tests.lsp.conftest import BUGGY, AgentCommand
from tests.lsp.servers import in_process, server_env

pytestmark = pytest.mark.e2e

WHOLE = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}


def sentence_only(error: JsonRpcException) -> None:
    """What a user may be shown: one sentence (or two), no Python internals."""
    said = json.dumps({"message": error.message, "data": error.data})
    assert "Traceback" not in said and "traceback" not in said and 'File "' not in said, said
    assert error.message.rstrip().endswith("."), error.message


async def test_every_command_answers_a_nul_uri_with_a_sentence(
    project: Path, scripted_agent: AgentCommand
) -> None:
    editor = new_editor("vscode+kesi")
    async with connected(editor.lsp, in_process(scripted_agent([]), None)):
        result = await editor.initialize([project])
        assert result.capabilities.execute_command_provider is not None
        commands = result.capabilities.execute_command_provider.commands
        assert "kesi.reset" in commands and len(commands) >= 8
        for name in commands:
            argument: dict[str, Any] = {
                "uri": "file:///%00",
                "prompt": "hi",
                "range": WHOLE,
                "taskId": "1",
                "server": "web",
            }
            try:
                await editor.command(name, argument)
            except JsonRpcException as error:
                sentence_only(error)
            else:  # a command that ignores the uri (kesi.cancel by runId) may just answer
                continue
        with pytest.raises(JsonRpcException) as caught:
            await editor.command("kesi.reset", {"uri": "file:///%00"})
        assert caught.value.data["reason"] == "notAFile"
        assert "not on file:///%00" in caught.value.message
        # the server still answers, and nothing was touched
        assert (await editor.command("kesi.permissions", {}))["commands"] == []
        await editor.lsp.shutdown_session()
    assert (project / "calc.py").read_text() == BUGGY


def exploding_server(runner: Any) -> KesiServer:
    server = create_server(server_env(), runner)

    @server.command("kesi.test.explode")
    def explode(ls: KesiServer, *args: object) -> None:
        raise ValueError("embedded null byte")

    return server


async def test_an_unexpected_failure_is_answered_with_a_sentence_not_a_traceback(
    project: Path, scripted_agent: AgentCommand
) -> None:
    """The net under every request, for failures nobody foresaw."""
    editor = new_editor("neovim")
    runner = scripted_agent([]).runner()
    async with connected(editor.lsp, InProcess(lambda: exploding_server(runner))):
        await editor.initialize([project])
        with pytest.raises(JsonRpcException) as caught:
            await editor.command("kesi.test.explode", {})
        assert caught.value.message == (
            "KeSi server error: ValueError: embedded null byte (details in the server log)."
        )
        assert caught.value.data is None
        assert (await editor.command("kesi.cost", {}))["requests"] == 0
        await editor.lsp.shutdown_session()
