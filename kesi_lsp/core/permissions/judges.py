"""The red line's entry points, handed to the wrappers that carry a script of their own.

A module of its own so that `wrappers.py` and `finddelete.py` can call back into the red line
(`redline.py`) without importing it: no import cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kesi_lsp.core.permissions.removal import Denial, Places
from kesi_lsp.core.permissions.shellwords import Script, Word


@dataclass(frozen=True)
class Judges:
    """The red line's three entry points, for wrappers that carry a script of their own."""

    words: Callable[[list[Word], Places, int], Denial | None]
    text: Callable[[str, Places, int], Denial | None]
    script: Callable[[Script, Places, int], Denial | None]


Special = Callable[[list[Word], Places, int, Judges], Denial | None]
