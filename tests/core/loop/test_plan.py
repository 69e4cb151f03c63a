"""The plan (Day 01: it lists what it will do, item by item): the todo tool's whole-list check,
its errors, the session's plan, and the event the editor shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kesi_lsp.core.events import PlanUpdated, ToolFinished
from kesi_lsp.core.history import check_history
from kesi_lsp.core.plan import PlanItem, plan_line, step_label
from kesi_lsp.core.prompt import rules_block
from kesi_lsp.scripted_api import reply, script, tool_use
from tests.core.loop.conftest import MakeAgent
from tests.core.workspace import Workspace, make_workspace


@pytest.fixture
def ws(tmp_path: Path) -> Workspace:
    return make_workspace(tmp_path)


@pytest.fixture
def zh(tmp_path: Path) -> Workspace:
    return make_workspace(tmp_path, locale="zh-TW")


PLAN = [
    {"content": "Find the cause", "status": "completed"},
    {"content": "Fix the comparison", "status": "in_progress"},
    {"content": "Run the tests", "status": "pending"},
]


async def test_a_plan_is_kept_and_reported(ws: Workspace) -> None:
    result = await ws.call("todo", items=PLAN)
    assert not result.is_error
    assert result.text == "Plan saved (1 of 3 done); in progress: Fix the comparison."
    assert result.summary == (
        "Plan (1/3 done): ✓ Find the cause · ▶ Fix the comparison · ○ Run the tests"
    )
    plan = (
        PlanItem("Find the cause", "completed"),
        PlanItem("Fix the comparison", "in_progress"),
        PlanItem("Run the tests", "pending"),
    )
    assert ws.session.plan == plan
    assert ws.events == [PlanUpdated(plan)]
    assert step_label(plan, "en") == "step 2 of 3: Fix the comparison"
    assert step_label(plan, "zh-TW") == "第 2 步（共 3 步）：Fix the comparison"


@pytest.mark.parametrize(
    ("items", "reason"),
    [
        ([], "the list is empty (a plan has at least one item)."),
        (
            [{"content": "a", "status": "in_progress"}, {"content": "b", "status": "in_progress"}],
            "items 1, 2 are all in_progress; only one step can be in progress at a time.",
        ),
        ([{"content": "a", "status": "doing"}], "item 1 has status 'doing', which is not"),
        ([{"content": " ", "status": "pending"}], "item 1 has no content"),
        ([{"status": "pending"}], "item 1 has no content"),
        (["just a string"], "item 1 is not an object with content and status."),
        ([{"content": "a", "status": "pending", "owner": "me"}], "item 1 has a field owner"),
        ([{"content": "x" * 400, "status": "pending"}], "item 1 is longer than 300 characters"),
    ],
)
async def test_a_bad_plan_is_a_clear_error_and_changes_nothing(
    ws: Workspace, items: list[Any], reason: str
) -> None:
    await ws.call("todo", items=PLAN)
    ws.events.clear()
    result = await ws.call("todo", items=items)
    assert result.is_error
    assert result.text.startswith("Error: the plan was not saved: " + reason)
    assert "at most one in_progress" in result.text  # what is expected, every time
    assert [item.content for item in ws.session.plan][1] == "Fix the comparison"
    assert ws.events == []


async def test_items_that_are_not_a_list_are_refused(zh: Workspace) -> None:
    result = await zh.call("todo", items="1. 找原因")
    assert result.is_error and "items 必須是項目清單" in result.text


def test_the_plan_on_one_line_in_the_seeds_locale() -> None:
    plan = (PlanItem("找原因", "completed"), PlanItem("修正", "pending"))
    assert plan_line(plan, "zh-TW") == "計畫（完成 1/2）：✓ 找原因 · ○ 修正"


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_prompt_says_when_and_how_to_plan(locale: str) -> None:
    rules = rules_block(locale)  # type: ignore[arg-type]
    assert "todo" in rules and "in_progress" in rules


async def test_the_plan_through_the_loop(make_agent: MakeAgent) -> None:
    steps = script(
        reply("Planning.", tool_use("todo", {"items": PLAN})),
        reply("Done.", expect={"last_tool_result_contains": "in progress: Fix the comparison"}),
    )
    agent = make_agent(steps, locale="en")
    finished = await agent.ask("fix it")
    assert finished.status == "done"
    assert len(agent.of(PlanUpdated)) == 1
    assert agent.of(ToolFinished)[0].summary.startswith("Plan (1/3 done)")
    assert check_history(agent.history) == []
    agent.ctx.session.reset()
    assert agent.ctx.session.plan == ()
