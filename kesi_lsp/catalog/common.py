"""Messages shared by several domains: key -> (English, seed Traditional Chinese)."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "common.none": ("(none)", "（無）"),
    "common.list_sep": (", ", "、"),
}
