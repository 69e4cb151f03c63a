"""The server's rendered lines that every client shows as they are (issue 25): a tool call's
detail, a call whose input is still arriving, the plan's title (key -> (English, Traditional
Chinese)).

The rest of a run's story uses the log's own words (`lsp.log.*` in `lsp.py`, `lsp_loop.py`),
so a log-only client and our own clients read the same lines.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "lsp.log.tool_bare": ("  [tool] {tool}", "  [執行工具] {tool}"),
    # A search's pattern and where it looks: `grep: LIMIT in config.py`.
    "lsp.detail.in": ("{pattern} in {path}", "{pattern}（在 {path}）"),
    # A tool call whose input is still arriving (Day 17), in place until its own line replaces
    # it: the tool line as it will read, and how much of the input has come.
    "story.tool_input": (
        "  [tool] {tool}: {detail} · {so_far}",
        "  [執行工具] {tool}：{detail} · {so_far}",
    ),
    "story.tool_input.bare": ("  [tool] {tool} · {so_far}", "  [執行工具] {tool} · {so_far}"),
    "story.tool_input.so_far": ("{size} so far", "已收到 {size}"),
    "lsp.plan.title": ("Plan: {done} of {total} done", "計畫：完成 {done}/{total}"),
    # A run's row in the changes listing (`core.changes.labels`): what was asked, where, when,
    # the verdict now: `Fix this · shop/rates.py:8 · 20:42 · verified`.
    "story.run.fix": ("Fix this", "修這裡"),
    "story.run.untitled": ("A run", "一次執行"),
    # A hunk's row: its lines and the first line of code it changed.
    "story.hunk": ("{where} · {code}", "{where} · {code}"),
    "story.hunk.removed": ("removed: {code}", "刪掉：{code}"),
    "story.hunk.blank": ("blank lines", "空白行"),
    # The run's verdict changed after it ended (an undo, a redo): for every client.
    "story.verdict": ("{run}: {status} ({detail})", "{run}：{status}（{detail}）"),
}
