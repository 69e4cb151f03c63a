"""The texts the agent read, kept for a while: what Day 9 compares the current text with.

`session.reads` proves *that* a file is as it was read (a digest); to tell whether the user's
typing since then touched the very place an `edit_file` replaces (seed Day 9: 不相干的變動沒必要擋),
the text itself is needed. It is also what a file the run deletes with a command is restored
from (design §2.9). Memory is bounded: the oldest texts go first once `max_bytes` is passed, and
a text that is not here simply means the seed's own rule (a unique `old_string` is evidence
enough).
"""

from __future__ import annotations

from collections import OrderedDict
from pathlib import Path
from typing import Final

MAX_BYTES: Final = 8 * 1024 * 1024


class ReadTexts:
    """Path -> the whole text the agent last read from it, least recently read first."""

    def __init__(self, max_bytes: int = MAX_BYTES) -> None:
        self.max_bytes = max_bytes
        self._texts: OrderedDict[Path, str] = OrderedDict()
        self._size = 0

    def remember(self, path: Path, text: str) -> None:
        self.forget(path)
        size = len(text)
        if size > self.max_bytes:
            return
        self._texts[path] = text
        self._size += size
        while self._size > self.max_bytes:
            _, dropped = self._texts.popitem(last=False)
            self._size -= len(dropped)

    def get(self, path: Path) -> str | None:
        return self._texts.get(path)

    def forget(self, path: Path) -> None:
        old = self._texts.pop(path, None)
        if old is not None:
            self._size -= len(old)

    def paths(self) -> list[Path]:
        return list(self._texts)

    def clear(self) -> None:
        self._texts.clear()
        self._size = 0
