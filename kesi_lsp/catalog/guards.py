"""Messages of the loop's guards: repeated calls (Day 12's fingerprint) and stalled streams.

Key -> (English, Traditional Chinese in the seed's voice). The repeat notes go to the model
inside tool results; the stop and stall messages go to the user and into the history.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    # --- the same call again and again (kesi_lsp.core.repeats) ---
    "loop.repeat.told": (
        "[KeSi] You have now made this exact call {times} times in a row, and it answered the "
        "same each time: calling it again will not change anything. Use what it returned, try a "
        "different approach, or stop and tell the user what you found.",
        "[KeSi] 這已經是連續第 {times} 次一模一樣的呼叫，每次回來的結果也一模一樣，"
        "再叫一次不會有不同。請用已經拿到的結果、換個做法，或停下來跟使用者說明目前的發現。",
    ),
    "loop.repeat.refused": (
        "Error: not run. This exact call has already answered the same {times} times in a row, "
        "so KeSi stopped the run.",
        "錯誤：沒有執行。這個一模一樣的呼叫已經連續 {times} 次回來同樣的結果，"
        "所以 KeSi 停下了這一輪。",
    ),
    "loop.repeat.skipped": (
        "Error: not run; the run stopped because a call kept repeating.",
        "錯誤：沒有執行；這一輪因為同一個呼叫一直重複而停下來了。",
    ),
    "loop.repeat.stopped": (
        "Stopped: the model called {call} {times} times in a row and got the same result each "
        "time, so KeSi ended the run instead of going round in circles. Rephrase the task or "
        "give it the missing information, then run KeSi again.",
        "已停止：模型連續 {times} 次呼叫 {call}，每次結果都一樣，KeSi 先把這一輪停下來，"
        "免得原地打轉。可以換個說法，或補上它缺的資訊再試一次。",
    ),
    # --- the stalled-stream watchdog (kesi_lsp.core.watchdog) ---
    "loop.api.stalled": (
        "Error: the connection to the API stalled: nothing arrived for {seconds} s, so KeSi "
        "closed it. The conversation is kept; run KeSi again (the streamIdleTimeout setting "
        "sets how long to wait).",
        "錯誤：和 API 的連線卡住了：{seconds} 秒都沒有收到任何資料，KeSi 把它關掉了。"
        "對話都還在，可以再執行一次（streamIdleTimeout 設定可以調整要等多久）。",
    ),
}
