"""Build histories shaped like the loop's (roles alternate, every tool_use answered)."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any

from anthropic.types import MessageParam

from kesi_lsp.core import tools as tool_registry
from kesi_lsp.scripted_api import validate_request


@dataclass
class Conversation:
    """A history grown one tool call (or one question) at a time."""

    history: list[MessageParam] = field(default_factory=list)
    count: int = 0

    def __post_init__(self) -> None:
        if not self.history:
            self.history.append({"role": "user", "content": "What does this project do?"})

    def call(self, name: str, output: str, *, is_error: bool = False, **tool_input: str) -> str:
        """The model calls `name` with `tool_input`; the tool answers `output`."""
        self.count += 1
        use_id = f"toolu_{self.count:03d}"
        self.history.append(
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": f"Step {self.count}."},
                    {"type": "tool_use", "id": use_id, "name": name, "input": dict(tool_input)},
                ],
            }
        )
        self.history.append(
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": use_id,
                        "content": output,
                        "is_error": is_error,
                    }
                ],
            }
        )
        return use_id

    def answer(self, reply: str, next_prompt: str) -> None:
        """The model answers in words, and the user asks the next question."""
        self.history.append({"role": "assistant", "content": [{"type": "text", "text": reply}]})
        self.history.append({"role": "user", "content": next_prompt})

    def snapshot(self) -> str:
        return json.dumps(self.history, ensure_ascii=False, sort_keys=True)

    def copy(self) -> Conversation:
        return Conversation(copy.deepcopy(self.history), self.count)


def result_of(history: list[MessageParam], use_id: str) -> dict[str, Any]:
    """The tool_result block answering `use_id`."""
    for message in history:
        content = message["content"]
        if message["role"] != "user" or not isinstance(content, list):
            continue
        for block in content:
            if isinstance(block, dict) and block.get("tool_use_id") == use_id:
                return block
    raise AssertionError(f"no tool_result for {use_id}")


def request_problems(history: list[MessageParam]) -> list[str]:
    """What the strict scripted API would reject in a request carrying `history`."""
    body = {
        "model": "claude-haiku-4-5",
        "max_tokens": 1024,
        "tools": tool_registry.tool_schemas("en"),
        "messages": history,
    }
    return validate_request(body, {"x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01"})


def source(name: str, lines: int) -> str:
    """A file's text of about `lines` lines (each ~60 characters), distinct per `name`."""
    return "".join(
        f"def {name}_{i}(value):  # line {i} of {name}\n    return value\n"
        for i in range(lines // 2)
    )
