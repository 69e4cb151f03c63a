"""A scripted task still succeeds with compaction on, and its answer is right.

The scripted model here reacts to what each request carries, as a real model would: its
summary is written from the facts it finds in the messages it is asked to summarise, and its
final answer names the value only if that value is somewhere in the request (the summary or
the verbatim turns). So the answer is right only if compaction really carried the fact from
the summarised part into the requests after it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from kesi_lsp.core.events import UsageReported
from kesi_lsp.scripted_api import RecordedRequest, Step, TextBlock, ToolUseBlock, script
from tests.core.loop.conftest import MakeAgent

FACT = re.compile(r"LIMIT = (\d+)")
USER = re.compile(r"(m\d\.py) uses LIMIT")


def _texts(body: dict[str, Any]) -> Iterator[str]:
    for message in body["messages"]:
        content = message["content"]
        if isinstance(content, str):
            yield content
            continue
        for block in content:
            if block.get("type") == "text":
                yield block["text"]
            elif block.get("type") == "tool_result":
                yield str(block.get("content", ""))


def _found(body: dict[str, Any]) -> tuple[str | None, str | None]:
    value = user = None
    for chunk in _texts(body):
        value = value or next((m.group(1) for m in FACT.finditer(chunk)), None)
        user = user or next((m.group(1) for m in USER.finditer(chunk)), None)
    return value, user


class ReadingModel:
    """Reads config.py and four big modules, then answers and fixes from what it can see."""

    def __init__(self) -> None:
        self.plan = ["config.py", "m1.py", "m2.py", "m3.py", "m4.py"]
        self.summaries = 0
        self.edited = False

    def __call__(self, request: RecordedRequest) -> Step:
        body = request.body
        value, user = _found(body)
        if "tool_choice" in body:  # the summary: only what the summarised part showed
            self.summaries += 1
            facts = f"config.py:1 sets LIMIT = {value}." if value else "none yet"
            used = f" {user} uses LIMIT." if user else ""
            return Step(content=(TextBlock(f"## Task\nFind LIMIT.\n## Facts\n{facts}{used}"),))
        if self.plan:
            name = self.plan.pop(0)
            return Step(content=(ToolUseBlock("read_file", {"file_path": name}),))
        if not self.edited:
            self.edited = True
            edit = {"file_path": "config.py", "old_string": f"LIMIT = {value}"}
            change = ToolUseBlock("edit_file", {**edit, "new_string": "LIMIT = 50"})
            return Step(content=(TextBlock(f"LIMIT is {value}; {user} uses it."), change))
        return Step(content=(TextBlock(f"Done: LIMIT was {value} (used by {user}), now 50."),))


def _project(root: Path) -> None:
    (root / "config.py").write_text("LIMIT = 42\n", encoding="utf-8")
    for i in range(1, 5):
        body = [f"# module m{i}"] + [f"def f{i}_{n}(x):\n    return x * {n}\n" for n in range(90)]
        if i == 3:
            body.insert(1, "# m3.py uses LIMIT from config.py")
        (root / f"m{i}.py").write_text("\n".join(body), encoding="utf-8")


async def test_a_task_whose_facts_were_summarised_still_answers_right(
    make_agent: MakeAgent,
) -> None:
    model = ReadingModel()
    agent = make_agent(
        script(),
        locale="en",
        hooks={"choose_step": model},
        context_budget=2_500,
        context_trimming=False,
    )
    _project(agent.ctx.session.root)
    finished = await agent.ask("Where is LIMIT set and who uses it? Then set it to 50.")

    assert model.summaries >= 1, "the task never needed compaction: the test proves nothing"
    assert finished.status == "done"
    assert finished.text == "Done: LIMIT was 42 (used by m3.py), now 50."
    assert (agent.ctx.session.root / "config.py").read_text() == "LIMIT = 50\n"
    assert any(e.purpose == "compaction" for e in agent.of(UsageReported))
    agent.assert_history_sound()
