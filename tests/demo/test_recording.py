"""The recorded model: run 1 of the seed's Day 13, and how it reacts to the user's answers."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

from kesi_lsp.catalog import text
from kesi_lsp.demo.project import BUGGY_LINE, FILES, FIXED_LINE
from kesi_lsp.demo.recording import (
    NEW_FUNCTION,
    OLD_FUNCTION,
    PLAN_DONE,
    PLAN_STEPS,
    REPLIES,
    RUN_1,
    TEST_COMMAND,
    next_reply,
    plan_call,
    recorded_model,
    reply_step,
)
from kesi_lsp.scripted_api import TextBlock, ToolUseBlock

RED = "===== 1 failed, 6 passed in 0.02s ====="
GREEN = "===== 7 passed in 0.02s ====="


class Conversation:
    """Builds a Messages API history the way KeSi's loop does: tool_use, then tool_result."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = [{"role": "user", "content": "fix line 18"}]
        self._ids = 0

    def call(self, *calls: tuple[str, dict[str, Any], str, bool]) -> Conversation:
        uses, results = [], []
        for name, tool_input, result, is_error in calls:
            self._ids += 1
            use_id = f"toolu_{self._ids}"
            uses.append({"type": "tool_use", "id": use_id, "name": name, "input": tool_input})
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": use_id,
                    "content": [{"type": "text", "text": result}],
                    "is_error": is_error,
                }
            )
        self.messages.append({"role": "assistant", "content": [{"type": "text", "text": "…"}]})
        self.messages[-1]["content"].extend(uses)
        self.messages.append({"role": "user", "content": results})
        return self

    def ls(self) -> Conversation:
        return self.call(("list_files", {}, "README.md\npricing.py\nrules.py", False))

    def tests(self, output: str, is_error: bool = False) -> Conversation:
        return self.call(("run_command", {"command": TEST_COMMAND}, output, is_error))

    def reads(self) -> Conversation:
        return self.call(
            *(("read_file", {"file_path": n}, FILES[n], False) for n in ("pricing.py", "rules.py"))
        )

    def edit(self, result: str, is_error: bool = False) -> Conversation:
        return self.call(("edit_file", {"file_path": "rules.py"}, result, is_error))

    def plan(self, then: tuple[str, dict[str, Any], str, bool] | None = None) -> Conversation:
        """The todo call (saved), alone or before another call of the same reply."""
        todo = ("todo", {"items": []}, "Plan saved (4 of 4 done); nothing is in progress.", False)
        return self.call(todo, *([then] if then else []))


REFUSED_COMMAND = text("permissions.refused_command", "en")
REFUSED_EDIT = text("permissions.refused_edit", "zh-TW")  # either locale is understood
EDITED = "Replaced (starting at line 20)."


def test_run_1_in_order_when_everything_is_allowed() -> None:
    c = Conversation()
    assert next_reply(c.messages) == "look"
    assert next_reply(c.ls().messages) == "run_tests"
    assert next_reply(c.tests(RED + "\n(exit code 1)", is_error=True).messages) == "read_red"
    assert next_reply(c.reads().messages) == "edit"
    assert next_reply(c.edit(EDITED).messages) == "rerun"
    assert next_reply(c.tests(GREEN).messages) == "plan_done"  # one round more than run 1
    assert next_reply(c.plan().messages) == "done"


def test_the_plan_moves_on_in_the_replies_of_run_1() -> None:
    """Each reply starts its step in the same reply as its tools; the tools decide what next."""
    tools = {
        reply: [
            b.name for b in reply_step(reply, "en", pace=0).content if isinstance(b, ToolUseBlock)
        ]
        for reply in ("look", "run_tests", "read_red", "edit", "rerun", "plan_done", "done")
    }
    assert tools == {
        "look": ["todo", "list_files"],
        "run_tests": ["run_command"],
        "read_red": ["todo", "read_file", "read_file", "read_file"],
        "edit": ["todo", "edit_file"],
        "rerun": ["todo", "run_command"],
        "plan_done": ["todo"],
        "done": [],
    }
    statuses = [[i["status"] for i in plan_call(n, "en").input["items"]] for n in range(5)]
    assert statuses[0] == ["in_progress", "pending", "pending", "pending"]
    assert statuses[3] == ["completed", "completed", "completed", "in_progress"]
    assert statuses[4] == ["completed"] * len(PLAN_STEPS)
    zh = plan_call(0, "zh-TW").input["items"][0]["content"]
    assert zh == "看看專案裡有什麼，跑一下測試"
    c = Conversation().plan(("list_files", {}, "rules.py", False))
    assert next_reply(c.messages) == "run_tests"  # the todo before list_files does not count


def test_a_refused_test_run_is_not_sent_again_and_the_fix_is_called_unverified() -> None:
    c = Conversation().ls().tests(REFUSED_COMMAND, is_error=True)
    assert next_reply(c.messages) == "read_unverified"
    assert next_reply(c.reads().edit(EDITED).messages) == "done_unverified"


def test_a_rejected_edit_ends_with_the_proposal_and_nothing_changed() -> None:
    c = Conversation().ls().tests(RED, is_error=True).reads().edit(REFUSED_EDIT, is_error=True)
    assert next_reply(c.messages) == "rejected"


def test_a_failed_edit_and_a_still_red_run_are_reported_as_such() -> None:
    failed = Conversation().ls().tests(RED).reads().edit("Error: stale", is_error=True)
    assert next_reply(failed.messages) == "edit_failed"
    still_red = Conversation().ls().tests(RED).reads().edit(EDITED).tests(RED, is_error=True)
    assert next_reply(still_red.messages) == "still_red"
    refused_later = Conversation().ls().tests(RED).reads().edit(EDITED)
    refused_later.tests(REFUSED_COMMAND, is_error=True)
    assert next_reply(refused_later.messages) == "done_unverified"


def test_the_edit_is_run_1s_whole_function_with_one_character_changed() -> None:
    rules = FILES["rules.py"]
    assert rules.count(OLD_FUNCTION) == 1
    assert OLD_FUNCTION.startswith("def tier_discount(") and BUGGY_LINE in OLD_FUNCTION
    assert OLD_FUNCTION.replace(BUGGY_LINE, FIXED_LINE) == NEW_FUNCTION
    assert len(NEW_FUNCTION) == len(OLD_FUNCTION) + 1


def test_run_1s_output_tokens_and_pace() -> None:
    assert sum(p.output_tokens for p in RUN_1.values()) == 1_095  # the seed's bill
    assert reply_step("plan_done", "en", pace=0).usage == {"output_tokens": PLAN_DONE.output_tokens}
    assert sum(p.seconds for p in RUN_1.values()) == pytest.approx(15.8)  # 16.2 s wall clock
    step = reply_step("read_red", "en", pace=1.0)
    tools = [b for b in step.content if isinstance(b, ToolUseBlock) and b.name == "read_file"]
    assert [t.input["file_path"] for t in tools] == ["test_pricing.py", "pricing.py", "rules.py"]
    assert step.usage == {"output_tokens": 184}
    assert step.timing.headers_delay > 0
    assert reply_step("read_red", "en", pace=0.0).timing.headers_delay == 0


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_summary_speaks_the_locale(locale: str) -> None:
    step = reply_step("done", locale, pace=0)  # type: ignore[arg-type]
    words = step.content[0]
    assert isinstance(words, TextBlock)
    expected = "完成！所有測試現在都通過了。" if locale == "zh-TW" else "Done! All tests pass now."
    assert expected in words.text
    assert "`if amount >= threshold:`" in words.text


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_every_reply_has_words_in_both_locales(locale: str) -> None:
    for reply in REPLIES:
        words = reply_step(reply, locale, pace=0).content[0]  # type: ignore[arg-type]
        assert isinstance(words, TextBlock) and words.text.strip(), reply


def test_the_recorded_model_answers_the_real_sdk_from_the_conversation_so_far() -> None:
    c = Conversation()
    tools: Any = [{"name": "list_files", "input_schema": {"type": "object"}}]
    with recorded_model("en", pace=0) as server:
        sdk = anthropic.Anthropic(api_key="sk-ant-test", base_url=server.base_url, max_retries=0)
        messages: Any = c.messages
        first = sdk.messages.create(model="m", max_tokens=100, messages=messages, tools=tools)
        messages = c.ls().messages
        second = sdk.messages.create(model="m", max_tokens=100, messages=messages, tools=tools)
        problems = server.problems
        labels = [r.label for r in server.requests]
    assert problems == [] and labels == ["look", "run_tests"]
    assert [b.type for b in first.content] == ["text", "tool_use", "tool_use"]
    assert first.content[0].text == text("demo.model.look", "en")  # type: ignore[union-attr]
    assert first.content[1].name == "todo"  # type: ignore[union-attr]
    assert first.content[2].name == "list_files"  # type: ignore[union-attr]
    assert second.content[1].input == {"command": TEST_COMMAND}  # type: ignore[union-attr]
