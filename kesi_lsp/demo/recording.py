"""The recorded model the demo plays when there is no API key.

It is the seed's Day 13 run 1, replayed through the scripted Messages API server (the real
wire format, the real `anthropic` SDK on the other side, deterministic token accounting):
list_files → run_command `python -m pytest -v` → three parallel read_file (test, pricing,
rules) → edit_file rules.py (the whole `tier_discount`, one character changed) → run_command
`python -m pytest -v` → the summary. Output token counts and round times are run 1's; input
and cache figures are counted by the server from what KeSi really sent.

On top of run 1 the recording keeps a plan, as Day 01's finished KeSi does (it lists what it
will do, one by one): the first round writes it with the todo tool, each later round moves it
on in the same reply, and once the tests are green one more round marks it done before the
summary. The run ends verified because the tests really ran green after the edit.

A recording cannot know what the person at the demo will answer. So each reply is chosen from
the conversation so far, the way the model would react: a refused test run is not sent again
(the refusal says so) and the summary then says the fix is unverified; a rejected edit ends
with the proposed fix and nothing changed. The replies' wording lives in the catalog
(`demo.model.*`), in the session's locale.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kesi_lsp.catalog import LOCALES, Locale, text
from kesi_lsp.demo.project import BUGGY_LINE, FILES, FIXED_LINE
from kesi_lsp.scripted_api import (
    RecordedRequest,
    Script,
    ScriptedServer,
    Step,
    TextBlock,
    Timing,
    ToolUseBlock,
    event_names,
)

TEST_COMMAND: Final = "python -m pytest -v"
# Haiku 4.5 does not cache a prompt shorter than this (Anthropic's prompt-caching docs).
MIN_CACHE_TOKENS: Final = 4096
FIRST_TOKEN_SECONDS: Final = 0.7


@dataclass(frozen=True)
class Pace:
    """Run 1's measured round: output tokens and wall-clock seconds."""

    output_tokens: int
    seconds: float


# Seed Day 13, run 1: "第 1 圈 input 4,162 output 66 2.6 秒" ... "第 6 圈 ... 229 3.2 秒".
RUN_1: Final[Mapping[str, Pace]] = {
    "look": Pace(66, 2.6),
    "run_tests": Pace(73, 2.0),
    "read_red": Pace(184, 2.4),
    "edit": Pace(466, 4.0),
    "rerun": Pace(77, 1.6),
    "done": Pace(229, 3.2),
}
PLAN_DONE: Final = Pace(48, 1.2)  # not in run 1: the round that marks the plan done
PLAN_STEPS: Final = ("look", "read", "fix", "rerun")
PLAN_AT: Final[Mapping[str, int]] = {"look": 0, "read_red": 1, "read_unverified": 1, "edit": 2}
"""The plan step each reply starts (the earlier ones completed); "rerun" starts the last."""
OTHER_ROUND_SECONDS: Final = 2.4


def _tier_discount(source: str) -> str:
    """The whole `tier_discount` function, as run 1's `old_string` carried it."""
    start = source.index("def tier_discount(")
    end = source.index("\n\n\n", start)
    return source[start:end] + "\n"


OLD_FUNCTION: Final = _tier_discount(FILES["rules.py"])
NEW_FUNCTION: Final = OLD_FUNCTION.replace(BUGGY_LINE, FIXED_LINE)


def plan_call(step: int, locale: Locale) -> ToolUseBlock:
    """The todo call with the steps before `step` completed and `step` in progress (`step`
    past the end: every step completed)."""
    items = []
    for number, name in enumerate(PLAN_STEPS):
        status = "completed" if number < step else "in_progress" if number == step else "pending"
        items.append({"content": text(f"demo.model.plan.{name}", locale), "status": status})
    return ToolUseBlock("todo", {"items": items})


def _tool_calls(reply: str, locale: Locale) -> tuple[ToolUseBlock, ...]:
    plan = (plan_call(PLAN_AT[reply], locale),) if reply in PLAN_AT else ()
    if reply == "look":
        return (*plan, ToolUseBlock("list_files", {}))
    if reply == "run_tests":
        return (ToolUseBlock("run_command", {"command": TEST_COMMAND}),)
    if reply == "rerun":
        return (plan_call(3, locale), ToolUseBlock("run_command", {"command": TEST_COMMAND}))
    if reply in ("read_red", "read_unverified"):
        names = ("test_pricing.py", "pricing.py", "rules.py")
        return (*plan, *(ToolUseBlock("read_file", {"file_path": name}) for name in names))
    if reply == "edit":
        edit = {"file_path": "rules.py", "old_string": OLD_FUNCTION, "new_string": NEW_FUNCTION}
        return (*plan, ToolUseBlock("edit_file", edit))
    if reply == "plan_done":
        return (plan_call(len(PLAN_STEPS), locale),)
    return ()


# -- reading the conversation ------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """A tool call the model made earlier, and what came back."""

    name: str
    input: Mapping[str, Any]
    result: str
    is_error: bool


def _result_text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(block.get("text", "")) for block in content if isinstance(block, Mapping)
        )
    return ""


def calls_in(messages: Sequence[Any]) -> list[Call]:
    """Every answered tool call in `messages`, in order."""
    uses: dict[str, tuple[str, Mapping[str, Any]]] = {}
    calls: list[Call] = []
    for message in messages:
        content = message.get("content") if isinstance(message, Mapping) else None
        if not isinstance(content, list):
            continue
        for block in content:
            if not isinstance(block, Mapping):
                continue
            if block.get("type") == "tool_use":
                tool_input = block.get("input")
                uses[str(block.get("id"))] = (
                    str(block.get("name")),
                    tool_input if isinstance(tool_input, Mapping) else {},
                )
            elif block.get("type") == "tool_result" and str(block.get("tool_use_id")) in uses:
                name, tool_input = uses[str(block.get("tool_use_id"))]
                result = _result_text(block.get("content"))
                calls.append(Call(name, tool_input, result, bool(block.get("is_error"))))
    return calls


_FAILED = re.compile(r"\b(\d+) failed\b")
_PASSED = re.compile(r"\b(\d+) passed\b")


def test_outcome(call: Call) -> str:
    """ "green", "red", "refused" or "error" for a run_command call."""
    if _FAILED.search(call.result):
        return "red"
    if _PASSED.search(call.result):
        return "green"
    if any(text("permissions.refused_command", loc) in call.result for loc in LOCALES):
        return "refused"
    return "error"


def edit_outcome(call: Call) -> str:
    """ "applied", "rejected" or "failed" for an edit_file call."""
    if not call.is_error:
        return "applied"
    if any(text("permissions.refused_edit", loc) in call.result for loc in LOCALES):
        return "rejected"
    return "failed"


def next_reply(messages: Sequence[Any]) -> str:
    """Which recorded reply answers a request with this history."""
    calls = calls_in(messages)
    if not calls:
        return "look"
    last = calls[-1]
    edits = [c for c in calls if c.name == "edit_file"]
    tests = [c for c in calls if c.name == "run_command"]
    refused_before = any(test_outcome(c) == "refused" for c in tests)
    if last.name == "list_files":
        return "run_tests"
    if last.name == "read_file":
        return "edit"
    if last.name == "edit_file":
        outcome = edit_outcome(last)
        if outcome == "applied":
            return "done_unverified" if refused_before else "rerun"
        return "rejected" if outcome == "rejected" else "edit_failed"
    if last.name == "run_command" and not edits:
        return "read_red" if test_outcome(last) == "red" else "read_unverified"
    if last.name == "run_command":
        outcome = test_outcome(last)
        return {"green": "plan_done", "refused": "done_unverified"}.get(outcome, "still_red")
    if last.name == "todo" and not last.is_error:
        return "done"
    return "lost"


# -- the replies ------------------------------------------------------------------------------

REPLIES: Final = (
    "look",
    "run_tests",
    "read_red",
    "read_unverified",
    "edit",
    "rerun",
    "plan_done",
    "done",
    "done_unverified",
    "rejected",
    "edit_failed",
    "still_red",
    "lost",
)


def reply_step(reply: str, locale: Locale, pace: float) -> Step:
    """The recorded answer `reply`, paced at `pace` (1.0: as measured; 0: no waiting)."""
    content: tuple[TextBlock | ToolUseBlock, ...] = (
        TextBlock(text(f"demo.model.{reply}", locale)),
        *_tool_calls(reply, locale),
    )
    measured = PLAN_DONE if reply == "plan_done" else RUN_1.get(reply)
    usage = {"output_tokens": measured.output_tokens} if measured else {}
    step = Step(content=content, usage=usage, label=reply)
    seconds = (measured.seconds if measured else OTHER_ROUND_SECONDS) * pace
    if seconds <= 0:
        return step
    first = min(FIRST_TOKEN_SECONDS * pace, seconds / 2)
    events = len(event_names(step))
    timing = Timing(headers_delay=first, event_delay=(seconds - first) / max(events, 1))
    return Step(content=content, usage=usage, label=reply, timing=timing)


class RecordedReplies:
    """The scripted server's `choose_step`: the fitting recorded reply for each request."""

    def __init__(self, locale: Locale, pace: float) -> None:
        self.locale = locale
        self.pace = pace
        self.played: list[str] = []

    def __call__(self, request: RecordedRequest) -> Step:
        reply = next_reply(request.messages)
        self.played.append(reply)
        return reply_step(reply, self.locale, self.pace)


def recorded_model(locale: Locale, pace: float) -> ScriptedServer:
    """The scripted Messages API server (not started), answering as run 1 would have."""
    replies = RecordedReplies(locale, pace)
    return ScriptedServer(Script(min_cache_tokens=MIN_CACHE_TOKENS), choose_step=replies)
