"""Messages of the `changes` domain: change sets, keep and undo (design §2.9).

What the user reads when they keep or undo KeSi's changes (or cannot), and the note the model
reads about what the user did with them.
"""

from __future__ import annotations

from typing import Final

_WHERE: Final[dict[str, tuple[str, str]]] = {
    "changes.where.top": ("at the top", "檔案開頭"),
    "changes.where.after": ("after line {line}", "第 {line} 行之後"),
    "changes.where.line": ("line {line}", "第 {line} 行"),
    "changes.where.lines": ("lines {first}–{last}", "第 {first}–{last} 行"),
    "changes.item": ("{path} {where}", "{path} {where}"),
    "changes.more_items": ("and {count} more", "還有 {count} 處"),
}

_NOTE: Final[dict[str, tuple[str, str]]] = {
    "changes.note.head": (
        "Note from KeSi, not from the user: since your last request the user looked at your "
        "changes in the editor. Do not redo what they undid unless they ask for it again, and "
        "work from their text where they changed yours.",
        "KeSi 的提醒（不是使用者說的）：你上次送出請求之後，使用者在編輯器裡看過你的修改。"
        "他復原的部分，除非他再要求，不要重做；他改過的地方，以他的內容為準。",
    ),
    "changes.note.undone": (
        "Undone by the user: {path} {where} (your change was taken back):",
        "使用者復原了：{path} {where}（你的修改被收回了）：",
    ),
    "changes.note.kept": ("Kept by the user: {path} {where}.", "使用者保留了：{path} {where}。"),
    "changes.note.modified": (
        "Changed by the user: {path} {where}; their text stays. From your version to theirs:",
        "使用者改過：{path} {where}，以他的內容為準。從你的版本到他的版本：",
    ),
    "changes.note.restored": (
        "Brought back by the user with the editor's undo: {path} {where}.",
        "使用者用編輯器的復原把它拿回來了：{path} {where}。",
    ),
    "changes.note.uncreated": (
        "Undone by the user: {path}, the file you created, was deleted.",
        "使用者復原了：你建立的檔案 {path} 已經刪掉。",
    ),
    "changes.note.undeleted": (
        "Undone by the user: {path}, the file you deleted, was restored.",
        "使用者復原了：你刪掉的檔案 {path} 已經還原。",
    ),
    "changes.partial": (
        "The user applied only part of your change to {path} and rejected the rest; what "
        "they kept is saved. From your version to the file as it is now:\n{diff}\nRead it "
        "again before any further change.",
        "使用者只套用了你對 {path} 的一部分修改，其餘的拒絕了；保留的部分已經存檔。"
        "從你的版本到檔案現在的內容：\n{diff}\n再改之前請先重新讀取檔案。",
    ),
    "changes.note.cut": ("    … {count} more lines", "    …還有 {count} 行"),
    "changes.note.more": ("- … and {count} more", "- …還有 {count} 項"),
}

_REFUSALS: Final[dict[str, tuple[str, str]]] = {
    "changes.none": (
        "KeSi has no changes to act on in this folder: no run has changed a file yet.",
        "這個資料夾裡沒有 KeSi 的修改可以處理：還沒有任何一次執行改過檔案。",
    ),
    "changes.none_here": (
        "KeSi has no changes there to act on.",
        "那裡沒有 KeSi 的修改可以處理。",
    ),
    "changes.unknown_run": (
        "There is no KeSi run {run} in this folder. Show KeSi's changes to see the runs it knows.",
        "這個資料夾沒有 KeSi 的執行 {run}。請顯示 KeSi 的修改，看看有哪些執行。",
    ),
    "changes.dropped_run": (
        "The changes of KeSi run {run} were dropped to stay within the memory limit; they stay "
        "in your files, but KeSi can no longer undo them (the editor's own undo still can).",
        "KeSi 執行 {run} 的修改紀錄，為了不超過記憶體上限已經丟掉了；修改還留在檔案裡，"
        "但 KeSi 沒辦法再復原它們（編輯器自己的復原還可以）。",
    ),
    "changes.unknown_hunk": (
        "KeSi has no change {hunk} in this folder (it may have been merged into a newer one). "
        "Show KeSi's changes to see the current ones.",
        "這個資料夾沒有 KeSi 的修改 {hunk}（可能已經併進比較新的修改裡）。"
        "請顯示 KeSi 的修改，看看目前有哪些。",
    ),
    "changes.dropped_hunk": (
        "KeSi's change {hunk} belonged to a run whose changes were dropped to stay within the "
        "memory limit; it stays in your file, but KeSi can no longer undo it.",
        "KeSi 的修改 {hunk} 屬於一次為了記憶體上限已經丟掉紀錄的執行；它還留在檔案裡，"
        "但 KeSi 沒辦法再復原它。",
    ),
    "changes.undo_busy": (
        "KeSi is still working in this folder. Cancel the run first, then undo it.",
        "KeSi 還在這個資料夾裡工作。請先取消這次執行，再復原它。",
    ),
    "changes.dropped": (
        "KeSi forgot the changes of {count} older run(s) in this folder to stay within its "
        "memory limit ({runs} runs or {megabytes} MB of original text per folder). Those "
        "changes stay in your files, but KeSi can no longer undo them.",
        "為了不超過記憶體上限（每個資料夾 {runs} 次執行或 {megabytes} MB 的原始內容），"
        "KeSi 丟掉了這個資料夾裡 {count} 次較早執行的修改紀錄。那些修改還留在檔案裡，"
        "但 KeSi 沒辦法再復原它們。",
    ),
}

_OUTCOMES: Final[dict[str, tuple[str, str]]] = {
    "changes.done.kept": ("KeSi: kept {items}.", "KeSi：保留了 {items}。"),
    "changes.done.undone": ("KeSi: undid {items}.", "KeSi：復原了 {items}。"),
    "changes.already.kept": (
        "Nothing to do: {items} already kept.",
        "不用再做：{items} 已經保留了。",
    ),
    "changes.already.undone": (
        "Nothing to do: {items} already undone.",
        "不用再做：{items} 已經復原了。",
    ),
    "changes.nothing": ("KeSi had nothing to keep or undo there.", "那裡沒有要保留或復原的修改。"),
    "changes.skip.undone": (
        "{item}: already undone, so there is nothing to keep.",
        "{item}：已經復原了，沒有東西可以保留。",
    ),
    "changes.skip.modified_keep": (
        "{item}: you changed it since; your text stays as it is.",
        "{item}：你之後改過它；維持你的內容。",
    ),
    "changes.skip.modified": (
        "{item}: left alone, because it was changed after KeSi wrote it (that text stays).",
        "{item}：沒有動，因為 KeSi 寫下之後它又被改過（保留現在的內容）。",
    ),
    "changes.skip.gone": (
        "{item}: the file is not there any more (deleted or renamed), so KeSi cannot undo its "
        "change.",
        "{item}：檔案已經不在了（被刪掉或改名），KeSi 沒辦法復原它的修改。",
    ),
    "changes.skip.exists_again": (
        "{item}: KeSi's run deleted this file, but there is a file at that path again; left alone.",
        "{item}：KeSi 那次執行刪掉了這個檔案，但同一個位置現在又有檔案了；沒有動它。",
    ),
    "changes.skip.created_changed": (
        "{item}: KeSi created this file, but it was changed since; left as it is.",
        "{item}：這個檔案是 KeSi 建立的，但之後又被改過；維持原樣。",
    ),
    "changes.skip.failed": (
        "{item}: the editor did not apply the undo ({reason}); nothing was changed there.",
        "{item}：編輯器沒有套用這次復原（{reason}）；那裡什麼都沒有改。",
    ),
}

_EDITOR: Final[dict[str, tuple[str, str]]] = {
    "changes.lens.keep": ("KeSi: Keep", "KeSi：保留"),
    "changes.lens.undo": ("KeSi: Undo", "KeSi：復原"),
    "changes.lens.keep_all": ("Keep all", "全部保留"),
    "changes.lens.undo_all": ("Undo all", "全部復原"),
    "changes.action.keep": ("KeSi: keep this change", "KeSi：保留這處修改"),
    "changes.action.undo": ("KeSi: undo this change", "KeSi：復原這處修改"),
    "changes.action.undo_run": ("KeSi: undo the last run", "KeSi：復原上一次執行"),
    "changes.diagnostic": (
        "KeSi's change, not reviewed yet ({removed} → {added} lines): keep it or undo it.",
        "KeSi 的修改，還沒檢查（{removed} 行 → {added} 行）：保留或復原。",
    ),
    "changes.review.hunk": (
        "{label} — change {index} of {count} (line {line})",
        "{label}——第 {index} 處修改，共 {count} 處（第 {line} 行）",
    ),
    "changes.undo_label": ("KeSi: undo {what}", "KeSi：復原 {what}"),
    "changes.undo.changed": (
        "it changed while the undo was being prepared, so it was left alone",
        "準備復原的時候它又被改過，所以沒有動它",
    ),
    "changes.undo.apply_error": (
        "the editor failed to apply it: {error}",
        "編輯器套用時出錯：{error}",
    ),
    "changes.undo.refused": ("the editor refused it: {reason}", "編輯器拒絕了：{reason}"),
    "changes.undo.not_deleted": (
        "{path} is still there after the editor's edit",
        "編輯器套用之後，{path} 還在",
    ),
    "changes.undo.not_saved": (
        "the undo of {path} reached the editor but could not be saved",
        "{path} 的復原已經進到編輯器，但沒能存檔",
    ),
    "changes.list.head": ("KeSi's changes in this folder:", "KeSi 在這個資料夾的修改："),
    "changes.list.none": (
        "KeSi has not changed any file in this folder.",
        "KeSi 還沒改過這個資料夾裡的任何檔案。",
    ),
    "changes.list.run": ("{label}", "{label}"),
    "changes.list.hunk": ("  {item}: {state}", "  {item}：{state}"),
    "changes.list.created": ("  {path}: created by the run", "  {path}：這次執行建立的"),
    "changes.list.deleted": ("  {path}: deleted by the run", "  {path}：這次執行刪掉的"),
    "changes.state.pending": ("not reviewed yet", "還沒檢查"),
    "changes.state.kept": ("kept", "保留"),
    "changes.state.undone": ("undone", "已復原"),
    "changes.state.modified": ("changed since", "之後被改過"),
}

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    **_WHERE,
    **_NOTE,
    **_REFUSALS,
    **_OUTCOMES,
    **_EDITOR,
}
