"""`approvals: "acceptEdits"`: file edits land without a question, commands are gated as ever.

Claude Code's mode of the same name: the user trusts KeSi's edits (they stay reviewable and
undoable in the editor) but not its shell. The red line is never bent by any setting.
"""

from __future__ import annotations

from typing import Any

from kesi_lsp.core.approval import CommandRequest, EditRequest
from kesi_lsp.scripted_api import Step, reply, script, tool_use
from tests.core.loop.conftest import MakeAgent

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"


def fix_then_run(*commands: str) -> list[Step]:
    steps: list[Step] = [
        reply("先讀。", tool_use("read_file", {"file_path": "calc.py"})),
        reply(
            "修正。",
            tool_use(
                "edit_file",
                {"file_path": "calc.py", "old_string": "a - b", "new_string": "a + b"},
            ),
        ),
    ]
    steps += [reply("跑跑看。", tool_use("run_command", {"command": c})) for c in commands]
    steps.append(reply("好了。"))
    return steps


def tool_result_texts(history: list[Any]) -> list[str]:
    """What the model was told, tool result by tool result."""
    texts = []
    for message in history:
        if message["role"] == "user" and isinstance(message["content"], list):
            for block in message["content"]:
                if block.get("type") == "tool_result":
                    content = block["content"]
                    texts.append(content if isinstance(content, str) else content[0]["text"])
    return texts


async def test_an_edit_lands_unasked_while_commands_still_ask(make_agent: MakeAgent) -> None:
    agent = make_agent(script(*fix_then_run("touch ran.txt")), approvals="acceptEdits")
    root = agent.ctx.session.root
    (root / "calc.py").write_text(BUGGY, encoding="utf-8")
    finished = await agent.ask("修好 add")
    assert finished.status == "done"
    assert (root / "calc.py").read_text(encoding="utf-8") == FIXED
    asked = agent.approver.asked
    assert not any(isinstance(a, EditRequest) for a in asked)  # the edit was never shown
    assert [a.command for a in asked if isinstance(a, CommandRequest)] == ["touch ran.txt"]
    assert (root / "ran.txt").exists()  # the approver said yes to the command
    assert agent.ctx.session.grants.files == set()  # no grant was recorded behind the user's back
    agent.assert_history_sound()


async def test_the_red_line_is_denied_without_asking_in_accept_edits(
    make_agent: MakeAgent,
) -> None:
    agent = make_agent(script(*fix_then_run("rm -rf /")), approvals="acceptEdits")
    root = agent.ctx.session.root
    (root / "calc.py").write_text(BUGGY, encoding="utf-8")
    await agent.ask("修好 add，順便清一下")
    assert agent.approver.asked == []  # neither the edit nor the red line reached the user
    results = agent.tool_results()
    assert [(r.name, r.is_error) for r in results] == [
        ("read_file", False),
        ("edit_file", False),
        ("run_command", True),
    ]
    assert "安全規則" in tool_result_texts(agent.history)[-1]
    assert (root / "calc.py").read_text(encoding="utf-8") == FIXED


async def test_ask_is_the_default_and_shows_every_edit(make_agent: MakeAgent) -> None:
    agent = make_agent(script(*fix_then_run()))
    (agent.ctx.session.root / "calc.py").write_text(BUGGY, encoding="utf-8")
    await agent.ask("修好 add")
    assert [type(a) for a in agent.approver.asked] == [EditRequest]
