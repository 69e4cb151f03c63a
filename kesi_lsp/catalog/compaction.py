"""Messages of compaction (`kesi_lsp.core.compaction`): key -> (English, Traditional Chinese).

Day 01 and Day 04 promise 把舊內容濃縮成摘要; the request's wording follows Claude Code's
compaction (a summary with fixed sections that replaces the older turns). `compaction.intro`
and `compaction.instruction` go to the model; the rest are notices for the user.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "compaction.instruction": (
        "[KeSi] This conversation is getting long, so everything above will be replaced by a "
        "summary you write now; later messages stay as they are, and your summary is all that "
        "will remain of this part. Do not call tools. Write it under exactly these headings, "
        "briefly and specifically, and only what really happened:\n"
        "## Task\nWhat the user asked for (their words where they matter) and how far it got.\n"
        "## Decisions\nWhat was decided and why: approaches taken or rejected, the user's "
        "preferences.\n"
        "## Files changed\nEach file changed and how (path: what changed); say when a change "
        "was rejected or undone.\n"
        "## What failed\nErrors, failing tests, refused commands and dead ends, so they are "
        "not repeated.\n"
        "## Open\nWhat is left to do, and the next step.\n"
        "## Facts\nWhat later work needs to know, with path:line references (names, values, "
        "tests, commands that work).",
        "[KeSi] 這段對話已經很長了，上面的內容會換成你現在寫的摘要；後面的訊息會原封不動留著，"
        "這一段只會剩下你的摘要。不要呼叫工具。請用下面這幾個標題，寫得簡短、具體，"
        "而且只寫真的發生過的事：\n"
        "## 任務\n使用者要做什麼（重要的地方用他的原話），做到哪裡了。\n"
        "## 決定\n做了哪些決定、為什麼：採用或放棄的做法、使用者的偏好。\n"
        "## 改過的檔案\n每個改過的檔案和怎麼改的（路徑：改了什麼）；被拒絕或復原的修改也要寫。\n"
        "## 失敗過的\n錯誤、沒過的測試、被拒絕的指令、走不通的路，免得再走一次。\n"
        "## 還沒做完的\n剩下什麼要做，下一步是什麼。\n"
        "## 事實\n之後還用得到的資訊，附上 path:行號（名稱、數值、測試、能用的指令）。",
    ),
    "compaction.intro": (
        "[KeSi] The earlier part of this conversation ({messages} messages) was summarised to "
        "save context; the summary follows, and the later messages are as they were. Files "
        "read before the summary are not in view any more: read a file again before you "
        "change it.",
        "[KeSi] 為了節省 context，這段對話前面的部分（{messages} 則訊息）已經濃縮成下面的摘要，"
        "後面的訊息維持原樣。摘要之前讀過的檔案內容已經不在眼前了，要修改檔案前請重新讀取。",
    ),
    "compaction.clipped": (
        "[… about {tokens} tokens of this result left out of the copy sent for the summary …]",
        "[…為了寫摘要，這份副本省略了這個結果中間約 {tokens} 個 token…]",
    ),
    "compaction.started": (
        "Summarising the older part of the conversation to keep it within its budget…",
        "對話太長了，正在把前面的部分濃縮成摘要…",
    ),
    "compaction.done": (
        "Summarised {messages} earlier messages (the conversation went from about {before} to "
        "{after} tokens); the latest {kept} messages are kept as they were. Files read before "
        "the summary will be read again before they are changed.",
        "已把前面 {messages} 則訊息濃縮成摘要（對話從約 {before} 個 token 變成 {after} 個），"
        "最近的 {kept} 則訊息原樣保留。摘要之前讀過的檔案，要修改前會重新讀取。",
    ),
    "compaction.done_too_long": (
        "The API said the conversation is too long for the model, so KeSi summarised {messages} "
        "earlier messages (about {before} to {after} tokens; the latest {kept} kept as they "
        "were) and sent the request again.",
        "API 說對話已經超過模型的上限，KeSi 把前面 {messages} 則訊息濃縮成摘要"
        "（約 {before} 個 token 變成 {after} 個，最近 {kept} 則原樣保留），再送一次請求。",
    ),
    "compaction.nothing": (
        "Nothing to summarise yet: the conversation is short (about {tokens} tokens).",
        "對話還很短（約 {tokens} 個 token），目前沒有需要濃縮的內容。",
    ),
    "compaction.cancelled": (
        "The summary was interrupted; the conversation is left as it was.",
        "摘要被中斷了，對話維持原樣。",
    ),
    "compaction.failed": (
        "Could not summarise the conversation ({reason}); it is left as it was.",
        "沒辦法濃縮對話（{reason}），對話維持原樣。",
    ),
    "compaction.no_summary": (
        "the model's answer was not a complete summary",
        "模型的回答不是一份完整的摘要",
    ),
    "compaction.finished": (
        "The conversation now holds a summary of its earlier part and the latest {kept} "
        "messages (about {tokens} tokens).",
        "對話現在是前面部分的摘要加上最近 {kept} 則訊息（約 {tokens} 個 token）。",
    ),
}
