"""The search sub-agent's system prompt: its rules, then a short environment.

The rules are its own (search, do not read everything, conclude with path:line references);
the environment repeats only what matters to a reader of files: the date, the workspace, the
fence and the names closed to every tool. Nothing about edits or commands: it has neither.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from kesi_lsp.catalog import Locale, text
from kesi_lsp.core.paths import IGNORED_NAMES

if TYPE_CHECKING:
    from anthropic.types import TextBlockParam


def search_system(
    root: Path, today: datetime.date, locale: Locale, *, max_turns: int, caching: bool
) -> list[TextBlockParam]:
    """The `system` field of the sub-agent's requests (rules cached, environment after)."""
    sep = text("common.list_sep", locale)
    environment = "\n".join(
        [
            text("loop.prompt.env.title", locale),
            "",
            text("loop.prompt.env.date", locale, date=today.isoformat()),
            text("loop.prompt.env.root", locale, root=root),
            text("loop.prompt.env.fence", locale),
            text("loop.prompt.env.ignored", locale, names=sep.join(sorted(IGNORED_NAMES))),
        ]
    )
    rules: TextBlockParam = {
        "type": "text",
        "text": text("search.prompt.rules", locale, max_turns=max_turns),
    }
    if caching:
        rules["cache_control"] = {"type": "ephemeral"}
    return [rules, {"type": "text", "text": environment}]
