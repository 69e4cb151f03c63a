"""Messages of the `delivery` domain: key -> (English, Traditional Chinese).

What the model is told when a change it made could not be delivered as meant, through whichever
editor (design §2.7): the text moved under it, the disk drifted from an open buffer, the editor
holds other text, the disk did not get it, or the editor reformatted it on save. One pipeline
(`kesi_lsp.core.delivery`) says them for every front end.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "delivery.stale": (
        "Not applied: {path} changed in the editor after you read it (the user may be typing "
        "there). Nothing was changed. Read the file again, then redo the edit on its current "
        "text.",
        "沒有套用：你讀過 {path} 之後，它在編輯器裡又被改過（使用者可能正在打字）。"
        "什麼都沒有改。請重新讀取檔案，再依照目前的內容重做修改。",
    ),
    "delivery.stale_review": (
        "Not applied: {path} changed in the editor while the user was reviewing your edit. "
        "Nothing was changed. Read the file again, then redo the edit on its current text.",
        "沒有套用：使用者檢查修改的時候，{path} 在編輯器裡被改過了。什麼都沒有改。"
        "請重新讀取檔案，再依照目前的內容重做修改。",
    ),
    "delivery.exists": (
        "Not applied: {path} was created by someone else meanwhile. Nothing was changed. Read "
        "it before deciding what to do.",
        "沒有套用：{path} 在這段時間被別人建立了。什麼都沒有改。請先讀取它，再決定怎麼做。",
    ),
    "delivery.buffer_differs": (
        "The edit to {path} did not land as intended: the editor now holds different text "
        "(the user applied only part of it, or edited the file at the same time). Read the "
        "file again before any further change.",
        "{path} 的修改沒有照預期套用：編輯器裡現在是另一份內容（使用者只套用了一部分，"
        "或同時在改這個檔案）。再改之前請先重新讀取檔案。",
    ),
    "delivery.left_unsaved": (
        "The edit to {path} is in the editor's buffer, which also holds the user's own unsaved "
        "changes, so it was not saved: commands and tests see the file on disk without it "
        "until the user saves.",
        "{path} 的修改已經進到編輯器的緩衝區，但那裡也有使用者自己還沒存的修改，所以沒有存檔："
        "在使用者存檔之前，指令和測試看到的是磁碟上沒有這次修改的檔案。",
    ),
    "delivery.not_saved": (
        "The edit to {path} reached the editor but could not be saved to disk, so commands "
        "will not see it. Read the file again before any further change.",
        "{path} 的修改已經進到編輯器，但沒能存到磁碟，指令看不到它。再改之前請先重新讀取檔案。",
    ),
    "delivery.reformatted": (
        "The editor reformatted {path} when saving it (format on save), so the file now differs "
        "from the text you wrote. Read it again before any further change.",
        "編輯器存檔時重新排版了 {path}（存檔時自動格式化），所以檔案和你寫的內容不完全一樣。"
        "再改之前請先重新讀取檔案。",
    ),
    "delivery.disk_moved": (
        "Not applied: {path} changed on disk since the editor loaded it (a command may have "
        "changed it), and the editor still shows the older text. Nothing was changed. Ask the "
        "user to reload {path} in the editor, then read it again before any edit.",
        "沒有套用：編輯器載入 {path} 之後，磁碟上的檔案又被改過（可能是某個指令改的），"
        "編輯器顯示的還是舊的內容。什麼都沒有改。請使用者在編輯器裡重新載入 {path}，"
        "再重新讀取它，然後才修改。",
    ),
    "delivery.disk_conflict": (
        "Not applied: {path} changed on disk (a command may have changed it) while the editor "
        "holds unsaved changes to it. Saving the edit would overwrite one or the other, so "
        "nothing was changed. Ask the user to save or revert {path} in the editor, then read "
        "it again before any edit.",
        "沒有套用：{path} 在編輯器裡有還沒存檔的修改，"
        "磁碟上的檔案卻又被改過（可能是某個指令改的）。"
        "存下這個修改會蓋掉其中一邊，所以什麼都沒有改。請使用者在編輯器裡存檔或還原 {path}，"
        "再重新讀取它，然後才修改。",
    ),
}
