"""Messages of resuming a saved conversation (`kesi_lsp.core.persistence`): key -> (English,
Traditional Chinese). Day 04 describes Claude Code's `--continue`; the seed's /reset is the
way back to a fresh conversation, named as the user's editor names it (`{reset}`)."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "resume.continued": (
        "Continuing this folder's conversation from {when} ({messages} messages, US${cost} so "
        "far). To start fresh, use {reset}.",
        "接續這個資料夾 {when} 的對話（{messages} 則訊息，目前累計 ${cost}）。"
        "要重新開始請用{reset}。",
    ),
    "resume.interrupted": (
        "Its last run was cut short when KeSi stopped; that round was closed as an interruption "
        "closes one (tool calls that may have run are marked unknown).",
        "上次 KeSi 停下來的時候那一輪還沒做完，已經照中斷的方式收好"
        "（可能已經執行的工具都標成狀態不明）。",
    ),
    "resume.corrupt": (
        "The saved conversation of this folder could not be used ({reason}), so this is a fresh "
        "one. The file is kept as {path}.",
        "這個資料夾存下來的對話沒辦法使用（{reason}），所以這是新的對話。原本的檔案保留在 {path}。",
    ),
    "resume.unreadable_kept": (
        "The saved conversation of this folder could not be read ({reason}) nor moved aside, so "
        "this is a fresh one and it will not be saved over {path}.",
        "這個資料夾存下來的對話讀不到（{reason}），也沒辦法移到旁邊，所以這是新的對話，"
        "而且不會覆寫 {path}。",
    ),
    "resume.inside": (
        "This folder's conversation will not be saved: the state directory {directory} is "
        "inside the folder, where KeSi's own tools could read it.",
        "這個資料夾的對話不會被存下來：狀態目錄 {directory} 在這個資料夾裡面，"
        "KeSi 自己的工具讀得到它。",
    ),
    "resume.save_failed": (
        "Could not save this folder's conversation to {path}: {error}. It goes on, but a restart "
        "will not bring it back.",
        "沒辦法把這個資料夾的對話存到 {path}：{error}。對話可以繼續，但重新啟動後就接不回來了。",
    ),
}
