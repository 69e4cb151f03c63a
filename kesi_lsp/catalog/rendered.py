"""The server's rendered lines that every client shows as they are (issue 25): a tool call's
detail, the plan's title (key -> (English, Traditional Chinese)).

The rest of a run's story uses the log's own words (`lsp.log.*` in `lsp.py`, `lsp_loop.py`),
so a log-only client and our own clients read the same lines.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "lsp.log.tool_bare": ("  [tool] {tool}", "  [執行工具] {tool}"),
    # A search's pattern and where it looks: `grep: LIMIT in config.py`.
    "lsp.detail.in": ("{pattern} in {path}", "{pattern}（在 {path}）"),
    "lsp.plan.title": ("Plan: {done} of {total} done", "計畫：完成 {done}/{total}"),
}
