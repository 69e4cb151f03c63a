"""Messages of the permission gate: key -> (English, Traditional Chinese as the seed words it)."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "permissions.refused_command": (
        "Error: the user refused to run this command. Do not send the same command again.",
        "錯誤：使用者拒絕執行這個指令。不要再送出同一個指令。",
    ),
    "permissions.refused_edit": (
        "Error: the user refused to modify this file. Nothing was changed. "
        "Do not send the same change again.",
        "錯誤：使用者拒絕修改這個檔案。檔案沒有任何變動，不要再送出同樣的修改。",
    ),
}
