"""A task's output: the last 1 MB it printed, and how much came before.

A dev server left running for an hour prints far more than anyone reads, so only the newest
`RING_BYTES` are kept. Every byte gets a position in the whole stream (`written`), so a reader
keeps its own cursor: "new since the last read" is the bytes after it, and what was dropped in
between is counted, never silently lost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

RING_BYTES: Final = 1 << 20


@dataclass(frozen=True)
class Slice:
    """Bytes read from the ring: `data`, from stream position `start`, with `dropped` bytes
    that had already been pushed out of the ring between the reader's cursor and `start`."""

    data: bytes
    start: int
    dropped: int

    @property
    def end(self) -> int:
        return self.start + len(self.data)


@dataclass
class Ring:
    """The newest `capacity` bytes of a stream, with the stream's total length."""

    capacity: int = RING_BYTES
    written: int = 0
    _data: bytearray = field(default_factory=bytearray)

    def write(self, chunk: bytes) -> None:
        self.written += len(chunk)
        self._data += chunk
        excess = len(self._data) - self.capacity
        if excess > 0:
            del self._data[:excess]

    @property
    def first(self) -> int:
        """Stream position of the oldest byte still kept."""
        return self.written - len(self._data)

    def since(self, cursor: int) -> Slice:
        """Everything after stream position `cursor` that is still kept."""
        start = max(cursor, self.first)
        return Slice(bytes(self._data[start - self.first :]), start, start - cursor)

    def tail_lines(self, count: int) -> Slice:
        """The last `count` lines kept (a last line without a newline counts as one)."""
        data = bytes(self._data)
        end = len(data) - 1 if data.endswith(b"\n") else len(data)
        cut = end
        for _ in range(max(count, 0)):
            cut = data.rfind(b"\n", 0, cut)
            if cut < 0:
                break
        begin = 0 if cut < 0 else cut + 1
        if count <= 0:
            begin = len(data)
        return Slice(data[begin:], self.first + begin, 0)

    def last_line(self) -> str:
        """The last non-empty line printed (for a listing), decoded leniently."""
        data = bytes(self._data[-4096:])
        for line in reversed(data.splitlines()):
            if line.strip():
                return line.decode("utf-8", "replace").strip()
        return ""
