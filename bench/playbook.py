"""The scripted model of the token benchmark: the scenario's replies in order, and summaries.

A scenario's replies are fixed, but when KeSi compacts is KeSi's decision, not the script's:
a summary request can come before any reply. `Playbook` is the scripted server's step chooser:
it answers a summary request (the compaction instruction in its last user message, tools turned
off) with a structured summary written from what that request carries — the questions asked,
the files read with their first line, what the searches concluded — and every other request
with the scenario's next reply. So the summary is as long as a real one would be for that
history, and the replies after it are the scenario's, in order.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from kesi_lsp.catalog import Locale, text
from kesi_lsp.scripted_api import RecordedRequest, Step, TextBlock


def _blocks(body: Mapping[str, Any]) -> Iterator[tuple[str, Mapping[str, Any]]]:
    for message in body.get("messages", []):
        content = message.get("content")
        if isinstance(content, str):
            yield message["role"], {"type": "text", "text": content}
        elif isinstance(content, list):
            for block in content:
                yield message["role"], block


def _last_user_text(body: Mapping[str, Any]) -> str:
    messages = body.get("messages", [])
    if not messages:
        return ""
    content = messages[-1].get("content")
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content if b.get("type") == "text")


def summary_from(body: Mapping[str, Any], locale: Locale) -> str:
    """A structured summary of what the request shows (the fixed headings of compaction)."""
    del locale  # the headings are English here; the benchmark's requests are what it counts
    asked: list[str] = []
    read: dict[str, str] = {}
    uses: dict[str, Mapping[str, Any]] = {}
    concluded: list[str] = []
    carried: list[str] = []
    for role, block in _blocks(body):
        kind = block.get("type")
        said = str(block.get("text", ""))
        if role == "user" and kind == "text" and said.startswith("[KeSi]"):
            if "## Facts" in said:  # an earlier summary: its facts carry over, as a model's would
                carried += [line for line in said.split("## Facts", 1)[1].splitlines() if line]
        elif role == "user" and kind == "text":
            asked.append(" ".join(said.split())[:120])
        elif kind == "tool_use":
            uses[str(block.get("id"))] = block
        elif kind == "tool_result":
            use = uses.get(str(block.get("tool_use_id")), {})
            body_text = block.get("content")
            result = body_text if isinstance(body_text, str) else json.dumps(body_text)
            if use.get("name") == "read_file":
                path = str(use.get("input", {}).get("file_path", "?"))
                read[path] = result.splitlines()[0][:100] if result else ""
            elif use.get("name") == "search_agent":
                concluded.append(result.split("\n\n")[0][:400])
    facts = [f"- {path}:1 {first}" for path, first in read.items()]
    lines = ["## Task", *(f"- {q}" for q in asked), "## Decisions", "- Read modules in pairs."]
    lines += ["## Files changed", "- None.", "## What failed", "- Nothing."]
    lines += ["## Open", "- Answer the next question.", "## Facts", *carried, *facts, *concluded]
    return "\n".join(lines)


class Playbook:
    """The step chooser: summaries when asked for, else the scenario's replies in order."""

    def __init__(self, steps: Iterable[Step], locale: Locale) -> None:
        self.steps = deque(steps)
        self.locale = locale
        self.summaries = 0
        self.refused = 0  # requests the scripted API refused (too long); none should be
        self._mark = text("compaction.instruction", locale)[:40]

    def is_summary(self, body: Mapping[str, Any]) -> bool:
        return body.get("tool_choice") == {"type": "none"} and self._mark in _last_user_text(body)

    def __call__(self, request: RecordedRequest) -> Step | None:
        if self.is_summary(request.body):
            self.summaries += 1
            return Step(content=(TextBlock(summary_from(request.body, self.locale)),))
        return self.steps.popleft() if self.steps else None

    @property
    def left(self) -> Sequence[Step]:
        return list(self.steps)
