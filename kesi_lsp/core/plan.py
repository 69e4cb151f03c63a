"""The plan the model keeps with the todo tool (Day 01: it lists what it will do, one by one).

Day 01's finished KeSi "lists what it will do, item by item" (你會看到它把要做的事一條一條列
出來) before it fixes anything, and the user watches the list move. The model sends the whole
list every time (nothing to merge, nothing to get out of step), each item with its status; at
most one item is in progress, so "what is it doing now" always has one answer. The check here is
strict and its errors say what is expected, because a malformed plan shown to the user is worse
than none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeGuard

from kesi_lsp.catalog import Locale, text

PlanStatus = Literal["pending", "in_progress", "completed"]
STATUSES: Final[tuple[PlanStatus, ...]] = ("pending", "in_progress", "completed")
MAX_ITEMS: Final = 30
MAX_CONTENT_CHARS: Final = 300


@dataclass(frozen=True)
class PlanItem:
    """One step of the plan: what it is, and how far it got."""

    content: str
    status: PlanStatus


Plan = tuple[PlanItem, ...]


def _is_status(value: object) -> TypeGuard[PlanStatus]:
    return value in STATUSES


class PlanError(ValueError):
    """A plan the todo tool refuses; the message is the sentence the model gets."""


def _item(number: int, raw: object, locale: Locale) -> PlanItem:
    if not isinstance(raw, Mapping):
        raise PlanError(text("plan.bad_item", locale, number=number))
    extra = sorted(str(k) for k in raw if k not in ("content", "status"))
    if extra:
        raise PlanError(text("plan.extra_field", locale, number=number, field=extra[0]))
    content, status = raw.get("content"), raw.get("status")
    if not isinstance(content, str) or not content.strip():
        raise PlanError(text("plan.no_content", locale, number=number))
    one_line = " ".join(content.split())
    if len(one_line) > MAX_CONTENT_CHARS:
        raise PlanError(text("plan.too_long", locale, number=number, limit=MAX_CONTENT_CHARS))
    if not _is_status(status):
        raise PlanError(text("plan.bad_status", locale, number=number, status=repr(status)))
    return PlanItem(one_line, status)


def parse_plan(raw: Sequence[object], locale: Locale) -> Plan:
    """The plan in `raw` (the todo tool's `items`), or PlanError saying what is expected."""
    if not raw:
        raise PlanError(text("plan.empty", locale))
    if len(raw) > MAX_ITEMS:
        raise PlanError(text("plan.too_many", locale, count=len(raw), limit=MAX_ITEMS))
    items = tuple(_item(number, value, locale) for number, value in enumerate(raw, 1))
    busy = [n for n, item in enumerate(items, 1) if item.status == "in_progress"]
    if len(busy) > 1:
        numbers = text("common.list_sep", locale).join(str(n) for n in busy)
        raise PlanError(text("plan.two_in_progress", locale, numbers=numbers))
    return items


def in_progress(plan: Plan) -> tuple[int, PlanItem] | None:
    """The 1-based number and item in progress, if any."""
    for number, item in enumerate(plan, 1):
        if item.status == "in_progress":
            return number, item
    return None


def done_count(plan: Plan) -> int:
    return sum(1 for item in plan if item.status == "completed")


def plan_line(plan: Plan, locale: Locale) -> str:
    """The plan on one line, for clients that only show log lines and for the tool result:
    `Plan (1/3 done): ✓ Find the cause · ▶ Fix the comparison · ○ Run the tests`."""
    marks = {"completed": "✓", "in_progress": "▶", "pending": "○"}
    steps = " · ".join(f"{marks[item.status]} {item.content}" for item in plan)
    return text("plan.line", locale, done=done_count(plan), total=len(plan), steps=steps)


def step_label(plan: Plan, locale: Locale) -> str | None:
    """`step 2/4: Fix the comparison` for the progress line, when an item is in progress."""
    current = in_progress(plan)
    if current is None:
        return None
    number, item = current
    return text("plan.step", locale, number=number, total=len(plan), content=item.content)
