"""Every command's argument is read into its contract class, strictly (issue 25): a field of
the wrong type or a required one missing is an InvalidParams error naming the command and the
field, and nothing runs: no run starts, no file changes, the conversation and the changes are
as they were. cattrs alone would have read `{"prompt": 3}` as the prompt "3".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from tests.lsp.clients import kesi_client
from tests.lsp.conftest import BUGGY, AgentCommand

pytestmark = pytest.mark.e2e

WHOLE = {"start": {"line": 0, "character": 0}, "end": {"line": 1, "character": 0}}

BAD: list[tuple[str, Any, str]] = [
    ("kesi.ask", {"prompt": 3}, "kesi.ask: 'prompt' must be a string"),
    ("kesi.ask", {}, "kesi.ask: 'prompt' is required"),
    ("kesi.ask", {"prompt": "hi", "range": {"start": 1}}, "kesi.ask: 'range' is not a valid Range"),
    ("kesi.ask", ["hi"], 'kesi.ask takes one object argument, e.g. {"uri": ...}'),
    ("kesi.fixThis", {"range": WHOLE}, "kesi.fixThis: 'uri' is required"),
    ("kesi.fixThis", {"uri": "", "range": WHOLE}, "kesi.fixThis: 'uri' is required"),
    ("kesi.fixThis", {"uri": "file:///a.py"}, "kesi.fixThis: 'range' is required"),
    (
        "kesi.fixThis",
        {"uri": "file:///a.py", "range": WHOLE, "diagnostics": "none"},
        "kesi.fixThis: 'diagnostics' must be a list",
    ),
    (
        "kesi.fixThis",
        {"uri": "file:///a.py", "range": WHOLE, "instruction": ["x"]},
        "kesi.fixThis: 'instruction' must be a string",
    ),
    ("kesi.cancel", {"runId": 7}, "kesi.cancel: 'runId' must be a string"),
    ("kesi.reset", {"uri": False}, "kesi.reset: 'uri' must be a string"),
    ("kesi.cost", {"uri": {}}, "kesi.cost: 'uri' must be a string"),
    ("kesi.compact", {"uri": 1}, "kesi.compact: 'uri' must be a string"),
    ("kesi.changes", {"uri": 1}, "kesi.changes: 'uri' must be a string"),
    ("kesi.keep", {"all": "yes"}, "kesi.keep: 'all' must be true or false"),
    ("kesi.undo", {"hunkId": 3}, "kesi.undo: 'hunkId' must be a string"),
    ("kesi.undoRun", {"runId": []}, "kesi.undoRun: 'runId' must be a string"),
]


async def test_a_bad_argument_is_named_and_nothing_runs(
    project: Path, scripted_agent: AgentCommand
) -> None:
    agent = scripted_agent([{"do": "edit", "path": "calc.py", "old": "a - b", "new": "a + b"}])
    async with kesi_client("vscode+kesi", [project], server=agent) as client:
        for name, argument, message in BAD:
            arguments = argument if isinstance(argument, list) else [argument]
            params = types.ExecuteCommandParams(command=name, arguments=arguments)
            with pytest.raises(JsonRpcException) as caught:
                await client.lsp.workspace_execute_command_async(params)
            assert caught.value.code == -32602, (name, argument)
            assert caught.value.message.startswith(message), caught.value.message
        # Nothing ran: no run, no request, no change, and the server still works.
        assert all(method != "kesi/runFinished" for method, _ in client.timeline)
        assert (await client.command("kesi.cost", {}))["requests"] == 0
        assert (await client.command("kesi.changes", {}))["runs"] == []
    assert (project / "calc.py").read_text(encoding="utf-8") == BUGGY
