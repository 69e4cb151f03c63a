"""Messages of the `loop` domain: key -> (English, Traditional Chinese as the seed words it)."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {}
