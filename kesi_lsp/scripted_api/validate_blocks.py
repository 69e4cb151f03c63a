"""What every part of a request is checked for, whatever its kind: the problems list, unknown
fields, `cache_control` markers and text blocks (used by `validate*.py`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Set
from typing import Any

TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,128}$")


class Problems:
    """The problems found so far, each prefixed with the JSON path it concerns."""

    def __init__(self) -> None:
        self.items: list[str] = []

    def add(self, where: str, message: str) -> None:
        self.items.append(f"{where}: {message}" if where else message)


def reject_extra(block: Mapping[str, Any], allowed: Set[str], where: str, out: Problems) -> None:
    """Name every field of `block` the API does not know, in sorted order."""
    for key in sorted(set(block) - allowed):
        out.add(f"{where}.{key}", "Extra inputs are not permitted")


def check_cache_control_of(block: Mapping[str, Any], where: str, out: Problems) -> None:
    """A block's `cache_control`, if it has one, must be `{"type": "ephemeral"}` (+ a ttl)."""
    if "cache_control" not in block:
        return
    value = block["cache_control"]
    if not isinstance(value, Mapping) or value.get("type") != "ephemeral":
        out.add(f"{where}.cache_control", "cache_control must be {'type': 'ephemeral'}")
        return
    extra = set(value) - {"type", "ttl"}
    if extra:
        out.add(f"{where}.cache_control", f"Extra inputs are not permitted: {sorted(extra)}")
    if "ttl" in value and value["ttl"] not in ("5m", "1h"):
        out.add(f"{where}.cache_control.ttl", "Input should be '5m' or '1h'")


def check_text_block(block: Mapping[str, Any], where: str, out: Problems) -> None:
    """A text block needs text that is not empty and not only white space."""
    text = block.get("text")
    if not isinstance(text, str):
        out.add(f"{where}.text", "Field required")
    elif not text:
        out.add(where, "text content blocks must be non-empty")
    elif not text.strip():
        out.add(where, "text content blocks must contain non-whitespace text")
    reject_extra(block, {"type", "text", "cache_control", "citations"}, where, out)
    check_cache_control_of(block, where, out)
