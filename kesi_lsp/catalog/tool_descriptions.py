"""What the model reads about each tool: descriptions and parameter texts (Days 05–11).

Day 05 says a description must tell the model what the tool does, when to use it and its
limits. The zh-TW texts are the seed's own, word for word (Days 06–11), and the English says the
same; where the seed gives no text (glob) the wording is ours. One deliberate change: Day 11's
run_command text bakes in the timeout, and Day 11 itself names the fix we use ("has a time
limit; the tool's result says how many seconds"), since the limit is a setting here.

Kept apart from the tools' results and errors (`tools.py`) because these are sent with every
request (they sit in the cached prefix) and change for a different reason: how the model is
steered, not what a tool answers.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "tools.desc.read_file": (
        "Read a text file in the workspace and return its whole content. Call it when the user "
        "asks what a file contains, or when you need a file's content to answer.",
        "讀取工作目錄底下的文字檔，回傳完整內容。"
        "當使用者問到某個檔案裡有什麼、或需要檔案內容才能回答時呼叫。",
    ),
    "tools.param.read_file.file_path": (
        "path of the file, relative to the workspace",
        "相對於工作目錄的檔案路徑",
    ),
    # Days 06 and 10 ask for Claude Code's offset and limit, the "page buttons" of a large
    # file (Day 06 quotes its description of offset). The seed's read_file description above
    # stays whole and word for word, so what ranged reads return is said here, added text.
    "tools.param.read_file.offset": (
        "The line number to start reading from (1 is the first line). Only provide it if the "
        "file is too large to read at once, or to read on where the last part ended. With "
        'offset or limit you get numbered lines ("12 | text": the number and " | " are not part '
        "of the file) and a last line saying which lines of how many these are.",
        "開始讀取的行號（第一行是 1）。只有檔案太大、無法一次讀完，"
        "或要接著上一段往下讀時才需要提供。有 offset 或 limit 時，"
        "回傳帶行號的內容（「12 | 內容」，行號與「 | 」不是檔案內容），"
        "最後一行說明這是全部幾行中的第幾行到第幾行。",
    ),
    "tools.param.read_file.limit": (
        "How many lines to read from offset (at least 1). Only provide it if the file is too "
        "large to read at once. Change a file you read only in part with edit_file.",
        "從 offset 開始要讀幾行（至少 1 行）。只有檔案太大、無法一次讀完時才需要提供。"
        "只讀過部分內容的檔案請用 edit_file 修改。",
    ),
    "tools.desc.list_files": (
        "List the files and subdirectories of a directory; directory names end with a slash. "
        "When you want to know what is in the project, or are not sure where a file is, look "
        "around with this first.",
        "列出指定目錄底下的檔案與子目錄，目錄名稱結尾會帶斜線。"
        "想知道專案裡有什麼、或不確定檔案位置時，先用這個環顧四周。",
    ),
    "tools.param.list_files.path": (
        "path relative to the workspace; omit it for the workspace itself",
        "相對於工作目錄的路徑，省略時代表工作目錄本身",
    ),
    "tools.desc.glob": (
        "Find files by wildcard pattern, e.g. *.py for the Python files at the top level, "
        "**/*.py for those in subdirectories too. Use it when you know what kind of file you "
        "want but not where it is. To search inside files, use grep.",
        "用萬用字元樣式尋找檔案，例如 *.py 找當層的 Python 檔、"
        "**/*.py 連子目錄一起找。知道要找哪一類檔案、但不知道位置時用這個。"
        "要搜尋檔案內容時改用 grep。",
    ),
    "tools.param.glob.pattern": (
        "glob pattern relative to the workspace; * and ** are supported",
        "glob 樣式，支援 * 與 **",
    ),
    "tools.desc.grep": (
        "Search the content of the workspace's files for text; regular expressions are "
        "supported, and results come back as file:line:text. Use it to find where a function, "
        "variable or string appears instead of reading files one by one.",
        "在工作目錄的檔案內容中搜尋文字，支援正規表達式，"
        "回傳「檔名:行號:該行內容」格式。想知道某個函式、變數或字串"
        "出現在哪些檔案時用這個，不要一個一個檔案讀。",
    ),
    "tools.param.grep.pattern": (
        "the text or regular expression to search for",
        "要搜尋的文字或正規表達式",
    ),
    "tools.param.grep.path": (
        "limit the search to this file or subdirectory; omit it to search the whole workspace",
        "限定搜尋的檔案或子目錄，省略時搜整個工作目錄",
    ),
    "tools.desc.edit_file": (
        "Change an existing UTF-8 text file: replace old_string with new_string. old_string "
        "must match the file's current content exactly (spaces, indentation and line breaks "
        "included) and occur only once in the file; if it is not unique, include more "
        "surrounding context. Read the current content with read_file before changing it.",
        "修改既有 UTF-8 文字檔：把 old_string 替換成 new_string。"
        "old_string 必須與檔案現有內容完全一致（含空白、縮排與換行），"
        "而且在檔案中只出現一次；不唯一時請加長前後文。"
        "修改前應先用 read_file 讀取目前內容。",
    ),
    "tools.param.edit_file.file_path": (
        "path of the existing file, relative to the workspace",
        "相對於工作目錄的既有檔案路徑",
    ),
    "tools.param.edit_file.old_string": (
        "the original text to replace; must match exactly, be non-empty and unique",
        "要被替換的原文，需完全一致、非空且唯一",
    ),
    "tools.param.edit_file.new_string": (
        "the new text; may be empty to delete the original",
        "替換後的新內容，可為空字串以刪除原文",
    ),
    "tools.desc.write_file": (
        "Create a new UTF-8 text file, or overwrite an existing file with complete new "
        "content. To change a small part of an existing file, prefer edit_file. If you really "
        "mean to overwrite an existing file, read its current version with read_file first; if "
        "the file changed after it was read, write_file refuses to overwrite it.",
        "建立新的 UTF-8 文字檔，或用完整內容覆寫既有檔案。"
        "修改既有檔案的一小部分時優先使用 edit_file。"
        "若確定要覆寫既有檔案，必須先用 read_file 讀取目前版本；"
        "檔案在讀取後若又有變更，write_file 會拒絕覆寫。",
    ),
    "tools.param.write_file.file_path": (
        "path of the file, relative to the workspace",
        "相對於工作目錄的檔案路徑",
    ),
    "tools.param.write_file.content": (
        "the complete UTF-8 text content to write to the file",
        "要寫入檔案的完整 UTF-8 文字內容",
    ),
    "tools.desc.run_command": (
        "Run one shell command in the workspace and return its combined output and exit code. "
        "Use it to run tests, linters, builds or to look at git history. A command has a time "
        "limit and is terminated when it runs over (the result says how many seconds); long "
        "output is truncated. There is no interactive input, so do not run commands that wait "
        "for input. Every call is a fresh process: cd and environment variables do not carry "
        "over to the next call; to change directory use cd x && ... on the same line. To read "
        "and write files, prefer read_file, edit_file and write_file.",
        "在工作目錄執行一行 shell 指令，回傳合併後的輸出與結束碼。"
        "用來跑測試、linter、建置或查 git 紀錄。"
        "指令有執行時間上限，超過會被終止（實際秒數看工具回報）；輸出過長會截斷。"
        "沒有互動輸入可用，不要下需要等待輸入的指令。"
        "每次都是全新的行程，cd 或環境變數不會留到下一次呼叫，"
        "需要換目錄時請在同一行用 cd x && ...。"
        "讀寫檔案請優先使用 read_file、edit_file 與 write_file。",
    ),
    "tools.param.run_command.command": (
        "the complete shell command to run, e.g. pytest -q",
        "要執行的完整 shell 指令，例如 pytest -q",
    ),
    # Day 01's visible plan (not one of the seed's seven tools, so no seed wording to keep).
    "tools.desc.todo": (
        "Write your plan for the task as a short list of steps, and keep it current: the user "
        "sees it while you work. Each call replaces the whole list, so always send every item "
        "with its status: pending, in_progress (the one step you are doing now; at most one) "
        "or completed. Use it when a task has several steps; mark a step completed as soon as "
        "it is done and the next one in_progress. A question or a one-step change needs no "
        "plan.",
        "把這個任務的計畫寫成一份簡短的步驟清單，並隨時更新：你做事的時候使用者看得到它。"
        "每次呼叫都會取代整份清單，所以每次都要送出所有項目和它們的狀態："
        "pending、in_progress（你現在正在做的那一步，最多一項）或 completed。"
        "任務有好幾個步驟時使用；一步做完就馬上標成 completed，並把下一步標成 in_progress。"
        "單純的問題或一步就能完成的修改不需要計畫。",
    ),
    "tools.param.todo.items": (
        "the whole plan, in order",
        "整份計畫，依照順序",
    ),
    "tools.param.todo.content": (
        "the step, in one short line, e.g. Run the tests",
        "這一步要做什麼，用一行短句，例如：跑測試",
    ),
}
