"""The front ends' words for the working loop's later parts: their settings, the hints after
a run that stopped on a repeat or a stall, and the log lines of searches and summaries for
clients that read `window/logMessage` (key -> (English, Traditional Chinese))."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "settings.expect.idle_timeout": (
        "a number of seconds above 0 and at most 3600",
        "大於 0、最多 3600 的秒數",
    ),
    "settings.expect.search_turns": ("a whole number from 2 to 100", "2 到 100 之間的整數"),
    "lsp.hint.repeating": (
        "Give KeSi what it was missing (a file name, the error, what you expect), or ask in "
        "another way.",
        "請補上 KeSi 缺的資訊（檔名、錯誤訊息、你期待的結果），或換個方式問。",
    ),
    "acp.hint.repeating": (
        "Give KeSi what it was missing (a file name, the error, what you expect), or ask in "
        "another way.",
        "請補上 KeSi 缺的資訊（檔名、錯誤訊息、你期待的結果），或換個方式問。",
    ),
    "acp.tool.search_agent": ("Search: {task}", "搜尋：{task}"),
    "lsp.busy_compact": (
        "KeSi is working in this folder; the conversation can be summarised when the run ends.",
        "KeSi 正在這個資料夾工作，等這一輪結束後才能濃縮對話。",
    ),
    "lsp.log.nested": ("    {line}", "    {line}"),
    "lsp.log.bill.compaction": (
        "  (summary of the conversation: input {input}, cache read {read}, cache write {write}, "
        "output {output}, ${cost})",
        "  （濃縮對話：input {input}、快取讀 {read}、快取寫 {write}、output {output}，${cost}）",
    ),
    "lsp.log.bill.search": (
        "    (search: {requests} request(s), input {input}, cache read {read}, cache write "
        "{write}, output {output}, ${cost})",
        "    （搜尋：{requests} 次請求，input {input}、快取讀 {read}、快取寫 {write}、"
        "output {output}，${cost}）",
    ),
    "lsp.progress.search": ("search › {tool}", "搜尋 › {tool}"),
}
