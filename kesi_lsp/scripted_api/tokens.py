"""Token counting for the scripted server, calibrated against the real API's figures.

Real token counts come from Anthropic's tokenizer, which nobody outside can run. The scripted
server needs numbers that are *deterministic* (a test can recompute them) and *close to the real
ones*, because the benchmarks judge KeSi's bill and its prompt caching by them (Claude Haiku 4.5
caches no prefix under 4,096 tokens: an error of a few hundred tokens decides whether the fixed
prefix is cached at all). So the rule below is fitted to every real count the seed publishes
(Days 04, 05, 07, 08, 16 and 18: `calibration.py` holds them with their requests) and to
Anthropic's documented tool-use overhead; `calibration_rows()` prints how far off it is on each,
and a test holds every one within 15 %.

Text (`count_tokens`): a CJK ideograph is 1.25 tokens (the seed: 0.96 a character across its
558-character rules, up to 2-4 for a rare character alone), full-width punctuation 1, a run of
ASCII letters 1 per started 6 letters (`Hello` 1: Day 18 measured `Hello, how are you today?` at
7), a run of digits 1 per 3, any other visible character 1, a line break 1, a single space 0
(it joins the next word), a longer run of spaces 1.

A request (`request_units`): 7 tokens of wrapper (the seed's `x` costs 8), then each cacheable
unit in the API's prefix order:
- tools: with any tool, the tool-use system prompt Anthropic adds (Haiku 4.5: 496 tokens with
  `tool_choice` auto or none, 588 with any or tool: the seed, Days 05 and 06, from the pricing
  page), then each tool as the JSON the model is shown, plus 48 tokens of wrapper, plus 130 a
  property when the tool is `strict` (fitted: get_time 124, read_file 343, grep 559);
- system blocks: their text;
- messages: 3 tokens for each message after the first (its turn marker), then each block: a
  text its text; a tool call 20 + its name and input; a tool result 10 + its content; anything
  else its JSON.
`cache_control` itself is not counted. The cache rule lives in `cache.py`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

REQUEST_OVERHEAD: Final = 7
TOOL_USE_PROMPT: Final[Mapping[str, int]] = {"auto": 496, "none": 496, "any": 588, "tool": 588}
TOOL_WRAPPER: Final = 48
STRICT_PER_PROPERTY: Final = 130
MESSAGE_OVERHEAD: Final = 3
TOOL_CALL_OVERHEAD: Final = 20
TOOL_RESULT_OVERHEAD: Final = 10

_PIECE = re.compile(
    r"(?P<cjk>[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002ffff])"
    r"|(?P<full>[\u3000-\u303f\uff00-\uffef\u2018-\u201f\u2026])"
    r"|(?P<letters>[A-Za-z]+)|(?P<digits>[0-9]+)"
    r"|(?P<newline>\n)|(?P<spaces>[ \t]{2,})|(?P<space>[ \t])|(?P<other>.)",
    re.DOTALL,
)


def count_tokens(text: str) -> int:
    """Tokens of `text` under the calibrated rule (the module text)."""
    quarters = 0
    for match in _PIECE.finditer(text):
        kind = match.lastgroup
        if kind == "cjk":
            quarters += 5
        elif kind == "letters":
            quarters += 4 * -(-len(match.group()) // 6)
        elif kind == "digits":
            quarters += 4 * -(-len(match.group()) // 3)
        elif kind != "space":
            quarters += 4
    return (quarters + 2) // 4


def canonical(value: object) -> str:
    """The JSON text a unit is hashed by (sorted keys, no cache_control)."""
    return json.dumps(_strip_cache_control(value), ensure_ascii=False, sort_keys=True)


def _strip_cache_control(value: object) -> object:
    if isinstance(value, Mapping):
        return {k: _strip_cache_control(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache_control(v) for v in value]
    return value


@dataclass(frozen=True)
class Unit:
    """One cacheable piece of a request, in prefix order, with its size in tokens."""

    where: str
    kind: str
    body: Mapping[str, Any]
    tokens: int

    @property
    def cache_control(self) -> Mapping[str, Any] | None:
        cc = self.body.get("cache_control")
        return cc if isinstance(cc, Mapping) else None


def request_units(body: Mapping[str, Any]) -> list[Unit]:
    """Split a (valid) request body into its cacheable units: tools, system, message blocks."""
    units: list[Unit] = []
    tools = [tool for tool in body.get("tools") or [] if isinstance(tool, Mapping)]
    for i, tool in enumerate(tools):
        added = _tool_use_prompt(body) if i == 0 else 0
        units.append(Unit(f"tools.{i}", "tool", tool, added + tool_tokens(tool)))
    system = body.get("system")
    blocks = [{"type": "text", "text": system}] if isinstance(system, str) and system else system
    for i, block in enumerate(blocks if isinstance(blocks, list) else []):
        if isinstance(block, Mapping):
            units.append(Unit(f"system.{i}", "system", block, block_tokens(block)))
    for m, message in enumerate(body.get("messages") or []):
        if isinstance(message, Mapping):
            units += _message_units(m, message)
    return units


def _message_units(m: int, message: Mapping[str, Any]) -> list[Unit]:
    role = str(message.get("role"))
    content = message.get("content")
    blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
    units: list[Unit] = []
    for b, block in enumerate(blocks if isinstance(blocks, list) else []):
        if not isinstance(block, Mapping):
            continue
        turn = MESSAGE_OVERHEAD if m and not units else 0
        where = f"messages.{m}" if isinstance(content, str) else f"messages.{m}.content.{b}"
        units.append(Unit(where, role, block, turn + block_tokens(block)))
    return units


def _tool_use_prompt(body: Mapping[str, Any]) -> int:
    choice = body.get("tool_choice")
    kind = choice.get("type") if isinstance(choice, Mapping) else None
    return TOOL_USE_PROMPT.get(str(kind), TOOL_USE_PROMPT["auto"])


def tool_tokens(tool: Mapping[str, Any]) -> int:
    """One tool definition as the model is shown it (the module text)."""
    shown = {key: value for key, value in tool.items() if key != "cache_control"}
    tokens = TOOL_WRAPPER + count_tokens(json.dumps(shown, ensure_ascii=False))
    schema = tool.get("input_schema")
    properties = schema.get("properties") if isinstance(schema, Mapping) else None
    if tool.get("strict") is True and isinstance(properties, Mapping):
        tokens += STRICT_PER_PROPERTY * len(properties)
    return tokens


def block_tokens(block: Mapping[str, Any]) -> int:
    """One content block (system or message) as the model reads it."""
    kind = block.get("type")
    if kind == "text":
        return count_tokens(str(block.get("text", "")))
    if kind == "tool_use":
        call = json.dumps(block.get("input", {}), ensure_ascii=False)
        return TOOL_CALL_OVERHEAD + count_tokens(str(block.get("name", ""))) + count_tokens(call)
    if kind == "tool_result":
        return TOOL_RESULT_OVERHEAD + _content_tokens(block.get("content"))
    other = {key: value for key, value in block.items() if key != "cache_control"}
    return count_tokens(json.dumps(other, ensure_ascii=False))


def _content_tokens(content: object) -> int:
    if isinstance(content, str):
        return count_tokens(content)
    if isinstance(content, list):
        return sum(block_tokens(b) for b in content if isinstance(b, Mapping))
    return 0


def input_size(body: Mapping[str, Any]) -> int:
    """All the input tokens of a request, cached or not (what a context window limits)."""
    return REQUEST_OVERHEAD + sum(unit.tokens for unit in request_units(body))


def output_tokens(content: Sequence[Mapping[str, Any]]) -> int:
    """Default output count of a reply: its text plus each tool call's name and input JSON."""
    total = 0
    for block in content:
        if block.get("type") == "text":
            total += count_tokens(str(block.get("text", "")))
        elif block.get("type") == "tool_use":
            total += count_tokens(str(block.get("name", "")))
            total += count_tokens(json.dumps(block.get("input", {}), ensure_ascii=False))
    return max(total, 1)
