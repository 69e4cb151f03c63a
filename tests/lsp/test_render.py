"""The server's rendered lines, event by event (issue 25): a tool call's detail one way for
every client, the stream's lines equal to the log's, the plan's and the review's words in both
locales (the wire tests are in test_rendered_lines.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kesi_lsp.core import (
    EditApplied,
    EditRequest,
    Nested,
    Notice,
    PlanItem,
    RunFinished,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnStarted,
    Usage,
    UsageReported,
    Verdict,
    end_line,
    tool_detail,
)
from kesi_lsp.lsp.approver import review_words
from kesi_lsp.lsp.args import unstructure
from kesi_lsp.lsp.stream import LogStory, StreamPayloads, plan_params

USAGE = Usage(requests=1, input_tokens=120, output_tokens=30, cost_usd=0.002)
SUB = Usage(requests=2, input_tokens=2000, output_tokens=80, cost_usd=0.0031)


@pytest.mark.parametrize(
    ("tool_input", "en", "zh"),
    [
        ({"pattern": "LIMIT =", "path": "src"}, "LIMIT = in src", "LIMIT =（在 src）"),
        ({"pattern": "*.py"}, "*.py", "*.py"),
        ({"command": "pytest -q\nruff check ."}, "pytest -q ⏎ ruff check .", None),
        ({"file_path": "a.py", "offset": 3}, "a.py", None),
        ({"task": "Where is LIMIT?"}, "Where is LIMIT?", None),
        ({"items": [{"content": "x", "status": "pending"}]}, "", None),
        ({}, "", None),
        ({"url": "https://x"}, '{"url": "https://x"}', None),
    ],
)
def test_a_tools_detail_is_one_line_one_way(
    tool_input: dict[str, object], en: str, zh: str | None
) -> None:
    assert tool_detail(tool_input, "en") == en
    assert tool_detail(tool_input, "zh-TW") == (en if zh is None else zh)
    assert len(tool_detail({"command": "x" * 500}, "en")) == 120


STORY = [
    Notice("workspace", "Working directory: /p"),
    TurnStarted(1, 20),
    TextDelta("Let me search.\n"),
    ToolStarted("s", "search_agent", {"task": "Where is LIMIT?"}),
    Nested("s", "search", TextDelta("Searching")),
    Nested("s", "search", ToolStarted("g", "grep", {"pattern": "LIMIT", "path": "."})),
    Nested("s", "search", ToolFinished("g", "grep", False, "config.py:1")),
    Nested("s", "search", UsageReported(USAGE, USAGE, USAGE, "search", USAGE)),
    Nested("s", "search", UsageReported(USAGE, USAGE, USAGE, "search", SUB)),
    ToolFinished("s", "search_agent", False, "LIMIT is 42\n(config.py:1)"),
    UsageReported(USAGE, USAGE, USAGE),
    EditApplied("edit_file", "a.py", "@@ -1 +1 @@\n-a\n+b"),
    UsageReported(USAGE, USAGE, USAGE, "compaction"),
    Notice("retry", "retrying in 2 s"),
]


@pytest.mark.parametrize("locale", ["en", "zh-TW"])
def test_the_stream_carries_exactly_the_logs_lines(locale: str) -> None:
    """Fed the same events, the log and the stream say the same lines but the model's text."""
    payloads = StreamPayloads("r", locale)  # type: ignore[arg-type]
    story = LogStory(locale)  # type: ignore[arg-type]
    streamed: list[str] = []
    logged: list[str] = []
    for event in STORY:
        value = payloads.payload(event)
        assert value is not None
        payload = unstructure(value)
        if payload["kind"] != "text":
            lines = payload["lines"]
            assert isinstance(lines, list)
            assert payload["line"] == (lines[0] if lines else "")
            streamed += lines
        logged += story.feed(event)
    logged += story.feed(RunFinished("done", "", USAGE))
    model_text = {"KeSi > Let me search.", "    Searching"}
    assert [line for line in logged if line not in model_text] == streamed
    assert "    Searching" in logged  # the sub-agent's text, said before its call's result
    assert logged.index("    Searching") < logged.index(streamed[3])


def test_stream_lines_in_english() -> None:
    payloads = StreamPayloads("r", "en")
    grep = unstructure(
        payloads.payload(Nested("s", "search", ToolStarted("g", "grep", {"pattern": "L"})))
    )
    assert (grep["line"], grep["detail"], grep["depth"]) == ("      [tool] grep: L", "L", 1)
    payloads.payload(Nested("s", "search", UsageReported(USAGE, USAGE, USAGE, "search", SUB)))
    end = unstructure(payloads.payload(ToolFinished("s", "search_agent", False, "found")))
    assert end["lines"] == [
        "    → found",
        "    (search: 2 request(s), input 2,000, cache read 0, cache write 0, output 80, $0.0031)",
    ]
    turn = unstructure(payloads.payload(TurnStarted(2, 20)))
    assert (turn["line"], turn["lines"]) == ("", [])
    assert unstructure(payloads.payload(TextDelta("hi"))) == {
        "runId": "r",
        "kind": "text",
        "text": "hi",
    }


PLAN = (
    PlanItem("Find the cause", "completed"),
    PlanItem("Fix it", "in_progress"),
    PlanItem("Run the tests", "pending"),
)


def test_the_plan_is_rendered_in_the_locale() -> None:
    en = unstructure(plan_params("r", PLAN, "en"))
    assert en["title"] == "Plan: 1 of 3 done"
    assert en["lines"] == ["✓ Find the cause", "▶ Fix it", "○ Run the tests"]
    assert en["current"] == "step 2 of 3: Fix it"
    zh = unstructure(plan_params("r", PLAN, "zh-TW"))
    assert (zh["title"], zh["current"]) == ("計畫：完成 1/3", "第 2 步（共 3 步）：Fix it")
    assert plan_params("r", PLAN[:1], "en").current is None


def test_the_end_of_a_run_is_one_line() -> None:
    verdict = Verdict("verified", "pytest", "1 passed")
    finished = RunFinished("done", "ok", USAGE, verified=verdict)
    assert end_line(finished, "(bill)", "en") == "done · verified · (bill)"
    assert end_line(finished, None, "zh-TW") == "完成 · 已驗證"
    assert end_line(RunFinished("cancelled", "", USAGE), None, "en") == "cancelled"


def test_the_review_says_the_seeds_words_deny_first() -> None:
    request = EditRequest("edit_file", Path("/p/a.py"), "a.py", "a\n", "b\n", "diff")
    words = review_words(request, "zh-TW")
    zh = unstructure({"title": words.title, "question": words.question, "actions": words.actions})
    assert zh == {
        "title": "[需要授權] edit_file 修改檔案：a.py",
        "question": "放行嗎？",
        "actions": [
            {"title": "不要", "decision": "reject"},
            {"title": "這次", "decision": "accept"},
            {"title": "這個 session 都好", "decision": "acceptSession"},
        ],
    }
    new = EditRequest("write_file", Path("/p/b.py"), "b.py", None, "b\n", "diff")
    en = review_words(new, "en")
    assert en.title == "[Permission needed] write_file creates file: b.py"
    assert [a.title for a in en.actions] == ["Deny", "Allow once", "Allow for this session"]
