"""Deterministic token counting and prompt-cache accounting for the scripted server.

Real token counts depend on Anthropic's tokenizer, which nobody outside can run. The scripted
server needs numbers that are *deterministic* (a test can recompute them) and *shaped like the
real ones* (Chinese costs about a token a character, English about a token per short word,
every request has a fixed wrapper, and a cached prefix is billed as a cache read).

Counting rule (`count_tokens`): every run of up to 4 ASCII letters/digits is one token, every
run of whitespace is one token, and every other character (punctuation, CJK, ...) is one token.
A request costs `REQUEST_OVERHEAD` (7, the wrapper the seed measured on Day 18) plus the tokens
of the canonical JSON of every cacheable unit, in the API's prefix order: each tool definition,
each system text block, then each content block of each message (a string content counts as
one text block). `cache_control` itself is not counted.

Cache rule (a simplified model of the real one): a `cache_control` breakpoint writes the prefix
ending at its block; a later request reads the longest previously written prefix that ends at,
or up to 20 blocks before, one of its breakpoints. `cache_read_input_tokens` is that prefix's
size, `cache_creation_input_tokens` is what lies between it and the last breakpoint (written
now), and `input_tokens` is the rest. Prefixes shorter than `min_cache_tokens` are not written.
Entries live 5 minutes (or 1 hour for `"ttl": "1h"`), refreshed on every read.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

REQUEST_OVERHEAD: Final = 7
LOOKBACK_BLOCKS: Final = 20
TTL_SECONDS: Final[Mapping[str, float]] = {"5m": 300.0, "1h": 3600.0}

_TOKEN = re.compile(r"[A-Za-z0-9]{1,4}|\s+|[^\sA-Za-z0-9]")


def count_tokens(text: str) -> int:
    """Tokens of `text` under the documented rule."""
    return len(_TOKEN.findall(text))


def canonical(value: object) -> str:
    """The JSON text a unit is counted and hashed by (sorted keys, no cache_control)."""
    return json.dumps(_strip_cache_control(value), ensure_ascii=False, sort_keys=True)


def _strip_cache_control(value: object) -> object:
    if isinstance(value, Mapping):
        return {k: _strip_cache_control(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache_control(v) for v in value]
    return value


@dataclass(frozen=True)
class Unit:
    """One cacheable piece of a request, in prefix order."""

    where: str
    kind: str
    body: Mapping[str, Any]

    @property
    def cache_control(self) -> Mapping[str, Any] | None:
        cc = self.body.get("cache_control")
        return cc if isinstance(cc, Mapping) else None


def request_units(body: Mapping[str, Any]) -> list[Unit]:
    """Split a (valid) request body into its cacheable units: tools, system, message blocks."""
    units: list[Unit] = []
    tools = body.get("tools") or []
    for i, tool in enumerate(tools):
        if isinstance(tool, Mapping):
            units.append(Unit(f"tools.{i}", "tool", tool))
    system = body.get("system")
    if isinstance(system, str) and system:
        units.append(Unit("system", "system", {"type": "text", "text": system}))
    elif isinstance(system, list):
        for i, block in enumerate(system):
            if isinstance(block, Mapping):
                units.append(Unit(f"system.{i}", "system", block))
    for m, message in enumerate(body.get("messages") or []):
        if not isinstance(message, Mapping):
            continue
        role = str(message.get("role"))
        content = message.get("content")
        if isinstance(content, str):
            units.append(Unit(f"messages.{m}", role, {"type": "text", "text": content}))
        elif isinstance(content, list):
            for b, block in enumerate(content):
                if isinstance(block, Mapping):
                    units.append(Unit(f"messages.{m}.content.{b}", role, block))
    return units


@dataclass(frozen=True)
class InputCount:
    """How a request's input tokens split up under the cache rule."""

    input_tokens: int
    cache_creation_input_tokens: int
    cache_read_input_tokens: int

    @property
    def total(self) -> int:
        return self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens


def input_size(body: Mapping[str, Any]) -> int:
    """All the input tokens of a request, cached or not (what a context window limits)."""
    units = request_units(body)
    return REQUEST_OVERHEAD + sum(count_tokens(canonical([u.kind, u.body])) for u in units)


class PromptCache:
    """The server's memory of written prefixes (thread-safe)."""

    def __init__(
        self, *, min_cache_tokens: int = 0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._min = min_cache_tokens
        self._clock = clock
        self._entries: dict[str, tuple[float, float]] = {}  # hash -> (expires_at, ttl)
        self._lock = threading.Lock()

    def account(self, body: Mapping[str, Any]) -> InputCount:
        """Count `body`'s input tokens, read what is cached and write its breakpoints."""
        units = request_units(body)
        sizes = [count_tokens(canonical([u.kind, u.body])) for u in units]
        prefix_tokens = _running_sums(sizes)
        hashes = _prefix_hashes(units)
        total = REQUEST_OVERHEAD + sum(sizes)
        breakpoints = [i for i, u in enumerate(units) if u.cache_control is not None]
        if not breakpoints:
            return InputCount(total, 0, 0)
        with self._lock:
            now = self._clock()
            hit = self._longest_hit(hashes, breakpoints, now)
            read = prefix_tokens[hit] if hit >= 0 else 0
            last = breakpoints[-1]
            written = 0
            if last > hit and prefix_tokens[last] >= self._min:
                written = prefix_tokens[last] - read
            for b in breakpoints:
                if prefix_tokens[b] >= self._min:
                    ttl = _ttl(units[b].cache_control)
                    self._entries[hashes[b]] = (now + ttl, ttl)
        return InputCount(total - read - written, written, read)

    def _longest_hit(self, hashes: Sequence[str], breakpoints: Sequence[int], now: float) -> int:
        best = -1
        for b in breakpoints:
            for i in range(b, max(-1, b - LOOKBACK_BLOCKS - 1), -1):
                entry = self._entries.get(hashes[i])
                if entry is not None and entry[0] > now:
                    self._entries[hashes[i]] = (now + entry[1], entry[1])
                    best = max(best, i)
                    break
        return best


def _running_sums(sizes: Sequence[int]) -> list[int]:
    out: list[int] = []
    acc = 0
    for size in sizes:
        acc += size
        out.append(acc)
    return out


def _prefix_hashes(units: Sequence[Unit]) -> list[str]:
    out: list[str] = []
    digest = hashlib.sha256()
    for unit in units:
        digest.update(canonical([unit.kind, unit.body]).encode("utf-8"))
        digest.update(b"\x00")
        out.append(digest.copy().hexdigest())
    return out


def _ttl(cache_control: Mapping[str, Any] | None) -> float:
    ttl = (cache_control or {}).get("ttl", "5m")
    return TTL_SECONDS.get(str(ttl), TTL_SECONDS["5m"])


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
