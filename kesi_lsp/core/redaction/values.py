"""Redacting structured things: events on their way to the front ends, and saved histories.

Both hold text in nested fields (an event's summary and tool input, a message's blocks), so
one walk replaces every string, keeps everything else, and hands back the very same object
when nothing changed (the common case costs no copy). Keys are never touched, nor the opaque
fields the API verifies (`signature`, `data` of thinking blocks).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

T = TypeVar("T")
OPAQUE: Final = frozenset({"signature", "data"})
SIGNED: Final = frozenset({"thinking", "redacted_thinking"})
"""Blocks the API verifies whole: a changed thinking text fails its signature (a 400)."""


def redact_value(value: T, redact: Callable[[str], str]) -> T:
    """`value` with every string inside it redacted; `value` itself when nothing changed."""
    return _walk(value, redact)  # type: ignore[no-any-return]


def redact_reply(content: list[T], redact: Callable[[str], str]) -> list[T]:
    """A model reply's blocks as the history keeps them: its text and tool inputs redacted (a
    token the model wrote never reaches the saved conversation or the next request), its
    signed thinking blocks as they came. The tools still run the reply as it came."""
    return [block if _type(block) in SIGNED else redact_value(block, redact) for block in content]


def _type(block: object) -> object:
    return block.get("type") if isinstance(block, Mapping) else getattr(block, "type", None)


def _walk(value: Any, redact: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, Mapping):
        items = {k: v if k in OPAQUE else _walk(v, redact) for k, v in value.items()}
        same = all(items[k] is v for k, v in value.items())
        return value if same else items
    if isinstance(value, list | tuple):
        walked = [_walk(v, redact) for v in value]
        if all(a is b for a, b in zip(walked, value, strict=True)):
            return value
        return walked if isinstance(value, list) else tuple(walked)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for field in dataclasses.fields(value):
            if not field.init:
                continue
            old = getattr(value, field.name)
            new = _walk(old, redact)
            if new is not old:
                changes[field.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    return value
