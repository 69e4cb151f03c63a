"""After a limit, the error message says the way on that fits *that* limit (over the wire).

Raising kesi.maxTurns does nothing for a reply cut off at max_tokens, and nothing but a fresh
conversation helps once the context window is full: each stop gets its own hint, in the
user's language, and nothing the model half-wrote is run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from kesi_lsp.scripted_api import reply, script, tool_use
from tests.lsp.clients import kesi_client
from tests.lsp.conftest import BUGGY
from tests.lsp.helpers import api_env
from tests.plugins.scripted_api import StartServer

HALF_WRITTEN = tool_use("write_file", {"file_path": "calc.py", "content": "def add(a, b):\n"})


async def _limit_message(
    project: Path, api: Any, kesi: dict[str, Any], editor: str = "vscode"
) -> str:
    async with kesi_client(
        editor, [project], env=api_env(api), configuration={"": {"kesi": kesi}}
    ) as client:
        done = await client.run("kesi.ask", {"prompt": "make add add"})
        assert done["status"] == "limit"
        (error,) = client.shown(types.MessageType.Error)
        assert (project / "calc.py").read_text(encoding="utf-8") == BUGGY
        return error


async def test_max_tokens_suggests_a_smaller_step_not_more_turns(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(script(reply("Rewriting calc.py", HALF_WRITTEN, stop_reason="max_tokens")))
    error = await _limit_message(project, api, {})
    assert error == (
        "KeSi stopped at a limit: Error: the model's reply hit max_tokens; no tool was run this "
        "round. Ask for a smaller step (one file or one function at a time), or raise the "
        "kesi.maxTokens setting."
    )
    assert "maxTurns" not in error


async def test_full_context_window_suggests_a_reset(
    project: Path, scripted_api: StartServer
) -> None:
    api = scripted_api(
        script(reply("Rewriting", HALF_WRITTEN, stop_reason="model_context_window_exceeded"))
    )
    error = await _limit_message(project, api, {})
    assert error.endswith("start a fresh one with “KeSi: Reset”, then ask again.")
    assert "filled the context window" in error and "maxTurns" not in error


async def test_repeated_tool_failures_point_at_the_tool_errors(
    project: Path, scripted_api: StartServer
) -> None:
    missing = tool_use("read_file", {"file_path": "nowhere.py"})
    api = scripted_api(script(reply(missing), reply(missing), reply("never reached")))
    api.allow_problems()  # the failure limit stops before the last step
    error = await _limit_message(project, api, {"maxToolFailures": 2})
    assert error == (
        "KeSi stopped at a limit: Error: every tool call failed for 2 rounds in a row; stopped "
        "at round 2. Please try a different approach. Look at the tool errors in the KeSi "
        "output to see what went wrong, then rephrase the request (for example, name the file "
        "or the command to use)."
    )


@pytest.mark.parametrize(
    ("stop_reason", "hint"),
    [
        ("max_tokens", "或調高 kesi.maxTokens 設定。"),
        (
            "model_context_window_exceeded",
            "用「:KeSiReset」重新開始一段對話，再問一次。",
        ),
    ],
)
async def test_the_hint_speaks_the_users_language(
    project: Path, scripted_api: StartServer, stop_reason: str, hint: str
) -> None:
    api = scripted_api(script(reply("…", HALF_WRITTEN, stop_reason=stop_reason)))
    error = await _limit_message(project, api, {"locale": "zh-TW"}, editor="neovim")
    assert error.startswith("KeSi 碰到上限停下來了：錯誤：") and error.endswith(hint)
    assert "maxTurns" not in error


@pytest.mark.parametrize(
    ("editor", "en", "zh"),
    [
        ("vscode", "“KeSi: Reset”", "「KeSi: Reset」"),
        ("neovim", ":KeSiReset", "「:KeSiReset」"),
        ("emacs", "M-x kesi-reset", "「M-x kesi-reset」"),
        ("helix", ":lsp-workspace-command kesi.reset", "「:lsp-workspace-command kesi.reset」"),
    ],
)
@pytest.mark.parametrize("locale", ["en", "zh-TW"])
async def test_the_way_to_start_over_is_the_editors_own_command(
    project: Path, scripted_api: StartServer, editor: str, en: str, zh: str, locale: str
) -> None:
    """Where the seed says 「用 /reset」, each editor's user hears the command *they* have (seed
    Day 04 and 12), in both locales: the limit's own words and the hint after them."""
    api = scripted_api(script(reply(tool_use("read_file", {"file_path": "calc.py"}))))
    error = await _limit_message(project, api, {"maxTurns": 1, "locale": locale}, editor=editor)
    if locale == "en":
        assert f"start over with {en}." in error
    else:
        assert f"或用{zh}重來。" in error
    assert "/reset" not in error
