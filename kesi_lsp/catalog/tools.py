"""Messages of the `tools` domain: key -> (English, Traditional Chinese as the seed words it).

The Chinese strings are the seed's own (Days 06–11) wherever the seed states them, character for
character; the English is a faithful translation. Every error the model can receive starts with
"Error:" / "錯誤：" so it reads as a refusal, not as file content.
"""

from __future__ import annotations

from typing import Final

_DISPATCH: Final[dict[str, tuple[str, str]]] = {
    "tools.unknown": (
        "Error: there is no tool named {name}.",
        "錯誤：沒有 {name} 這個工具。",
    ),
    "tools.bad_arguments": (
        "Error: wrong arguments for {name}: {detail}",
        "錯誤：{name} 的參數不正確：{detail}",
    ),
    "tools.arg_not_object": ("the input must be a JSON object", "輸入必須是 JSON 物件"),
    "tools.arg_missing": ("missing required field {field}", "缺少必填欄位 {field}"),
    "tools.arg_unexpected": ("unexpected field {field}", "不認得的欄位 {field}"),
    "tools.arg_not_string": ("{field} must be a string", "{field} 必須是字串"),
    "tools.arg_not_integer": ("{field} must be a whole number", "{field} 必須是整數"),
    "tools.arg_not_plan": (
        "{field} must be a list of items, each {{content, status}}",
        "{field} 必須是項目清單，每一項是 {{content, status}}",
    ),
    "tools.crashed": (
        "Error: {name} failed: {error}",
        "錯誤：{name} 執行失敗：{error}",
    ),
}

_READ: Final[dict[str, tuple[str, str]]] = {
    "tools.read.not_found": (
        "Error: file not found or access not allowed: {path}",
        "錯誤：找不到或不允許存取檔案 {path}",
    ),
    "tools.read.ignored": (
        "Error: this file is not open for reading.",
        "錯誤：這個檔案不開放讀取。",
    ),
    "tools.read.not_file": (
        "Error: not a readable text file: {path}",
        "錯誤：不是可以讀取的文字檔 {path}",
    ),
    "tools.read.not_utf8": (
        "Error: the file is not UTF-8 text: {path}",
        "錯誤：檔案不是 UTF-8 文字檔 {path}",
    ),
    "tools.read.os_error": (
        "Error: cannot read file {path}: {error}",
        "錯誤：無法讀取檔案 {path}：{error}",
    ),
    "tools.read.empty": ("(the file is empty)", "（檔案是空的）"),
    # --- ranged reads (Days 06 and 10: offset and limit are the "page buttons") ---
    "tools.read.bad_offset": (
        "Error: offset is the line number to start reading at (1 for the first line), not "
        "{offset}.",
        "錯誤：offset 是開始讀取的行號（第一行是 1），不能是 {offset}。",
    ),
    "tools.read.bad_limit": (
        "Error: limit is how many lines to read, at least 1, not {limit}.",
        "錯誤：limit 是要讀幾行，至少 1 行，不能是 {limit}。",
    ),
    "tools.read.past_end": (
        "Error: offset {offset} is past the end of {path}, which has {total} line(s). Read from "
        "offset 1 to {total}.",
        "錯誤：offset {offset} 超過 {path} 的結尾，這個檔案只有 {total} 行，"
        "請從 offset 1 到 {total} 之間讀。",
    ),
    "tools.read.empty_offset": (
        "Error: {path} is empty; there are no lines to read from offset {offset}.",
        "錯誤：{path} 是空的，沒有從 offset {offset} 開始的行可讀。",
    ),
    "tools.read.part": (
        "[lines {first}-{last} of {total} in {path}; read on with offset={next}]",
        "[{path} 共 {total} 行，這是第 {first}-{last} 行；要往下讀請用 offset={next}]",
    ),
    "tools.read.part_end": (
        "[lines {first}-{last} of {total} in {path}: the end of the file]",
        "[{path} 共 {total} 行，這是第 {first}-{last} 行，已經到檔案結尾]",
    ),
    "tools.read.part_whole": (
        "[lines {first}-{last} of {total} in {path}: the whole file]",
        "[{path} 共 {total} 行，這是第 {first}-{last} 行，也就是整個檔案]",
    ),
    "tools.read.partial_view": (
        "[{path} is too large to return at once ({size} bytes); this is only its beginning. "
        "Read the rest in parts with offset and limit, or find the lines you need with grep.]",
        "[{path} 太大，無法一次回傳（{size} bytes），這裡只是開頭。"
        "其餘部分請用 offset 與 limit 分段讀，或用 grep 找出需要的行。]",
    ),
    "tools.read.line_cut": (
        " … [this line goes on for {count} more characters]",
        " … [這一行後面還有 {count} 個字元]",
    ),
    "tools.read.summary_part": (
        "read lines {first}-{last} of {total}",
        "讀了第 {first}-{last} 行（共 {total} 行）",
    ),
}

_LIST: Final[dict[str, tuple[str, str]]] = {
    "tools.list.not_found": (
        "Error: directory not found or access not allowed: {path}",
        "錯誤：找不到或不允許存取目錄 {path}",
    ),
    "tools.list.ignored": (
        "Error: this directory is not open for reading.",
        "錯誤：這個目錄不開放讀取。",
    ),
    "tools.list.not_dir": ("Error: {path} is not a directory", "錯誤：{path} 不是一個目錄"),
    "tools.list.os_error": (
        "Error: cannot list directory {path}: {error}",
        "錯誤：無法列出目錄 {path}：{error}",
    ),
    "tools.list.empty": (
        "(nothing to list in this directory)",
        "（這個目錄沒有可列出的項目）",
    ),
    "tools.list.truncated": (
        "({total} entries in all; only the first {shown} are shown)",
        "（共有 {total} 筆，只顯示前 {shown} 筆）",
    ),
}

_GLOB: Final[dict[str, tuple[str, str]]] = {
    "tools.pattern_empty": ("Error: pattern must not be empty.", "錯誤：pattern 不可為空。"),
    "tools.glob.dot": (
        "Error: pattern must name the file names to look for.",
        "錯誤：pattern 必須指定要找的檔名樣式。",
    ),
    "tools.glob.outside": (
        "Error: pattern must be a relative pattern inside the workspace.",
        "錯誤：pattern 只能用工作目錄內的相對樣式。",
    ),
    "tools.glob.invalid": (
        "Error: cannot parse the glob pattern: {error}",
        "錯誤：無法解析 glob 樣式：{error}",
    ),
    "tools.glob.double_star": (
        "'**' can only be an entire path component",
        "'**' 只能單獨成為路徑的一節",
    ),
    "tools.glob.no_match": (
        "No accessible file matches {pattern}.",
        "找不到可存取且符合 {pattern} 的檔案。",
    ),
}

_GREP: Final[dict[str, tuple[str, str]]] = {
    "tools.grep.not_found": (
        "Error: path not found or not allowed to search: {path}",
        "錯誤：找不到或不允許搜尋路徑 {path}",
    ),
    "tools.grep.ignored": (
        "Error: this path is not open for searching.",
        "錯誤：這個路徑不開放搜尋。",
    ),
    "tools.grep.not_searchable": (
        "Error: {path} is not a file or directory that can be searched",
        "錯誤：{path} 不是可以搜尋的檔案或目錄",
    ),
    "tools.grep.no_rg": (
        "Error: the rg command was not found; install ripgrep first.",
        "錯誤：找不到 rg 指令，請先安裝 ripgrep。",
    ),
    "tools.grep.timeout": (
        "Error: the search was stopped after {seconds} seconds; narrow it down and try again.",
        "錯誤：搜尋超過 {seconds} 秒被中止，請縮小範圍後再試。",
    ),
    "tools.grep.os_error": (
        "Error: cannot run the search: {error}",
        "錯誤：無法執行搜尋：{error}",
    ),
    "tools.grep.no_match": (
        "No content contains {pattern}.",
        "找不到含有 {pattern} 的內容。",
    ),
    "tools.grep.failed": ("Search failed: {detail}", "搜尋失敗：{detail}"),
    "tools.grep.no_detail": ("rg gave no error message", "rg 沒有提供錯誤訊息"),
    "tools.grep.more": (
        "(more than {shown} lines; only the first {shown} are shown)",
        "（超過 {shown} 行，只顯示前 {shown} 行）",
    ),
}

_EDIT: Final[dict[str, tuple[str, str]]] = {
    "tools.edit.old_empty": (
        "Error: old_string must not be empty.",
        "錯誤：old_string 不可為空。",
    ),
    "tools.edit.same": (
        "Error: old_string and new_string are identical; there is nothing to change.",
        "錯誤：old_string 與 new_string 相同，沒有內容需要修改。",
    ),
    "tools.edit.ignored": (
        "Error: this file is not open for editing.",
        "錯誤：這個檔案不開放修改。",
    ),
    "tools.edit.not_file": (
        "Error: not an editable text file: {path}",
        "錯誤：不是可以修改的文字檔 {path}",
    ),
    "tools.edit.no_match": (
        "Error: the text to replace was not found in the file. old_string must match the "
        "file's content exactly (spaces, indentation and line breaks included); use read_file "
        "to check the current content first.",
        "錯誤：在檔案裡找不到要替換的文字。old_string 必須與檔案內容"
        "完全一致（包含空白、縮排與換行），請先用 read_file 確認目前內容。",
    ),
    "tools.edit.ambiguous": (
        "Error: the text to replace occurs more than once in the file, so it is not clear "
        "which one to change. Make old_string longer and include more surrounding context so "
        "that it is unique in the file.",
        "錯誤：要替換的文字在檔案裡不只出現一次，無法確定要改哪一處。"
        "請加長 old_string、納入更多前後文，使它在檔案中唯一。",
    ),
    "tools.edit.encode": (
        "Error: new_string contains text that cannot be written as UTF-8.",
        "錯誤：new_string 含有無法寫成 UTF-8 的內容。",
    ),
    "tools.edit.stale": (
        "Error: the text to replace was changed after you read the file (the user or another "
        "program edited that part). Nothing was changed; read it again with read_file before "
        "editing.",
        "錯誤：要替換的那段內容在讀取後又被改過（使用者或其他程式改了那裡），什麼都沒有改；"
        "請重新 read_file 後再修改。",
    ),
    "tools.list.gitignored": (  # Day 07's .gitignore-aware listing, which the seed left for later
        "({count} more not listed: .gitignore ignores {names})",
        "（另有 {count} 個項目沒有列出：.gitignore 忽略了 {names}）",
    ),
    "tools.glob.gitignored": (
        "(Left out because .gitignore ignores them: {names})",
        "（.gitignore 忽略的沒有列出：{names}）",
    ),
    "tools.edit.changed_note": (  # after Day 9's no-match / not-unique text, when the user typed
        " (The file was changed after you read it; read_file shows its current text.)",
        "（你讀取之後這個檔案被改過了，read_file 可以看到目前的內容。）",
    ),
    "tools.edit.changed_meanwhile": (
        "Error: the file changed while the edit was being made (the user or another program "
        "edited it). Nothing was changed; read it again with read_file before editing.",
        "錯誤：修改還沒寫下去，檔案就又被改過了（使用者或其他程式改的），什麼都沒有改；"
        "請重新 read_file 後再修改。",
    ),
    "tools.edit.done": (
        "Replaced (starting at line {line}).",
        "替換完成（從第 {line} 行開始）。",
    ),
}

_WRITE: Final[dict[str, tuple[str, str]]] = {
    "tools.write.encode": (
        "Error: content contains text that cannot be written as UTF-8.",
        "錯誤：content 含有無法寫成 UTF-8 的內容。",
    ),
    "tools.write.not_allowed": (
        "Error: writing to this path is not allowed: {path}",
        "錯誤：不允許寫入路徑 {path}",
    ),
    "tools.write.ignored": (
        "Error: this path is not open for writing.",
        "錯誤：這個路徑不開放寫入。",
    ),
    "tools.write.not_file": (
        "Error: not a text file that can be overwritten: {path}",
        "錯誤：不是可以覆寫的文字檔 {path}",
    ),
    "tools.write.read_first": (
        "Error: read the current content with read_file before overwriting an existing file.",
        "錯誤：覆寫既有檔案前，必須先用 read_file 讀取目前內容。",
    ),
    "tools.write.read_in_part": (
        "Error: you have read only lines {seen} of the {total} lines of {path}, so overwriting "
        "it would throw away lines you have not seen. Read the whole file with read_file "
        "first, or change the part you mean with edit_file.",
        "錯誤：{path} 共 {total} 行，你只讀了第 {seen} 行，整個覆寫會丟掉你沒看過的行。"
        "請先用 read_file 讀完整個檔案，或改用 edit_file 修改你要改的那一段。",
    ),
    "tools.write.check_failed": (
        "Error: cannot check the current content of {path}: {error}",
        "錯誤：無法確認檔案目前內容 {path}：{error}",
    ),
    "tools.write.stale": (
        "Error: the file has changed since it was read; read it again with read_file before "
        "overwriting.",
        "錯誤：檔案在讀取後又有變更，請重新 read_file 後再覆寫。",
    ),
    "tools.write.same": (
        "The content is identical; there is nothing to overwrite.",
        "檔案內容相同，不需要覆寫。",
    ),
    "tools.write.raced": (
        "Error: the file was just created by another program; read it with read_file first, "
        "then decide.",
        "錯誤：檔案剛被其他程式建立，請先用 read_file 讀取後再決定。",
    ),
    "tools.write.overwritten": (
        "Overwrote {path} ({size} bytes).",
        "已覆寫 {path}（{size} bytes）。",
    ),
    "tools.write.created": (
        "Created {path} ({size} bytes).",
        "已建立 {path}（{size} bytes）。",
    ),
}

_DELIVERY: Final[dict[str, tuple[str, str]]] = {
    "tools.delivery_failed": (
        "Error: the change to {path} was not applied. Nothing was changed; read the file again "
        "before retrying.",
        "錯誤：對 {path} 的修改沒有套用，檔案沒有任何變動，請重新 read_file 後再試。",
    ),
    "tools.disk.mkdir_failed": (
        "Error: cannot create the parent folders of {path}: {error}",
        "錯誤：無法建立上層目錄 {path}：{error}",
    ),
    "tools.disk.missing": (
        "Error: {path} no longer exists; nothing was written. Look again before deciding.",
        "錯誤：{path} 已經不存在，沒有寫入任何內容，請重新確認後再決定。",
    ),
    "tools.disk.create_failed": (
        "Error: cannot create file {path}: {error}",
        "錯誤：無法建立檔案 {path}：{error}",
    ),
    "tools.disk.replace_failed": (
        "Error: cannot overwrite the file: {error}",
        "錯誤：無法覆寫檔案：{error}",
    ),
    "tools.disk.edit_failed": (
        "Error: cannot write file {path}: {error}",
        "錯誤：無法寫入檔案 {path}：{error}",
    ),
}

_RUN: Final[dict[str, tuple[str, str]]] = {
    "tools.run.empty": ("Error: command must not be empty.", "錯誤：command 不可為空。"),
    "tools.run.launch_failed": (
        "Error: cannot run the command: {error}",
        "錯誤：無法執行指令：{error}",
    ),
    "tools.run.no_output": ("(no output)", "（指令沒有輸出）"),
    "tools.run.omitted": (
        "(… {count} bytes omitted in the middle …)",
        "（中間省略 {count} bytes）",
    ),
    "tools.run.timed_out": (
        "(the command did not finish within {seconds} seconds and was terminated)",
        "（指令超過 {seconds} 秒未結束，已終止）",
    ),
    "tools.run.overflow": (
        "(output exceeded {limit} bytes; the command was terminated)",
        "（輸出超過 {limit} bytes，已終止指令）",
    ),
    "tools.run.signal": ("(killed by signal {signal})", "（被訊號 {signal} 終止）"),
    "tools.run.exit_code": ("(exit code {code})", "（結束碼 {code}）"),
}

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    **_DISPATCH,
    **_READ,
    **_LIST,
    **_GLOB,
    **_GREP,
    **_EDIT,
    **_WRITE,
    **_DELIVERY,
    **_RUN,
}
