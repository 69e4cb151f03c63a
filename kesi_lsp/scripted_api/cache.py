"""Prompt-cache accounting for the scripted server (a simplified model of the real rule).

A `cache_control` breakpoint writes the prefix ending at its block; a later request reads the
longest previously written prefix that ends at, or up to 20 blocks before, one of its
breakpoints. `cache_read_input_tokens` is that prefix's size, `cache_creation_input_tokens` is
what lies between it and the last breakpoint (written now), and `input_tokens` is the rest.
Prefixes shorter than `min_cache_tokens` are not written (Claude Haiku 4.5: 4,096). Entries live
5 minutes (or 1 hour for `"ttl": "1h"`), refreshed on every read. Sizes are `tokens.py`'s.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from kesi_lsp.scripted_api.tokens import REQUEST_OVERHEAD, Unit, canonical, request_units

LOOKBACK_BLOCKS: Final = 20
TTL_SECONDS: Final[Mapping[str, float]] = {"5m": 300.0, "1h": 3600.0}


@dataclass(frozen=True)
class InputCount:
    """How a request's input tokens split up under the cache rule."""

    input_tokens: int
    cache_creation_input_tokens: int
    cache_read_input_tokens: int

    @property
    def total(self) -> int:
        return self.input_tokens + self.cache_creation_input_tokens + self.cache_read_input_tokens


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
        """Count `body`'s input tokens, read what is cached and write its breakpoints.

        The request's own wrapper (`REQUEST_OVERHEAD`) is always uncached input, as the few
        tokens of `input_tokens` the real API reports beside a cache hit.
        """
        units = request_units(body)
        prefix_tokens = _running_sums([u.tokens for u in units])
        hashes = _prefix_hashes(units)
        total = REQUEST_OVERHEAD + (prefix_tokens[-1] if units else 0)
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
