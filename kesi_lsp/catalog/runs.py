"""Messages of the `runs` domain: key -> (English, Traditional Chinese as the seed words it).

What every front end says about a run's life (its end when cancelled or crashed, the approvals
notice) and the task text it gives the agent for "fix this" and "ask" (`kesi_lsp.core.tasks`).
"""

from __future__ import annotations

from typing import Final

_RUNS: Final[dict[str, tuple[str, str]]] = {
    "runs.cancelled": ("Cancelled.", "已取消。"),
    "runs.workspace": ("Working directory: {root}", "工作目錄：{root}"),  # Day 15's start-up line
    "runs.edits_accepted": (
        "Edits: applied without asking (kesi.approvals is acceptEdits). KeSi's file edits land "
        "in the editor as they are made; review them there and undo what you do not want. "
        "Commands still need your approval as before.",
        "改檔：不先問，直接套用（kesi.approvals 是 acceptEdits）。KeSi 改的檔案會直接出現在"
        "編輯器裡，請在那裡檢查，不要的就復原。指令還是跟以前一樣要經過你同意。",
    ),
    "runs.crashed": (
        "KeSi hit an internal error ({error}). Your files are as the last applied edit left "
        "them; the details are in the KeSi server log.",
        "KeSi 發生內部錯誤（{error}）。檔案停在最後一次套用修改後的狀態；"
        "細節在 KeSi server 的記錄裡。",
    ),
}

_TASKS: Final[dict[str, tuple[str, str]]] = {
    "runs.task.fix": (
        "Fix the code in {path}, lines {lines}, as shown in my editor:",
        "請修正 {path} 第 {lines} 行的程式碼，以下是我編輯器裡看到的內容：",
    ),
    "runs.task.diagnostics": ("The editor reports:", "編輯器回報的問題："),
    "runs.task.problem": ("- line {line}: {problem}", "- 第 {line} 行：{problem}"),
    "runs.task.severity.error": ("error", "錯誤"),
    "runs.task.severity.warning": ("warning", "警告"),
    "runs.task.severity.info": ("info", "資訊"),
    "runs.task.severity.hint": ("hint", "提示"),
    "runs.task.instruction": ("What I want: {instruction}", "我的要求：{instruction}"),
    "runs.task.fix_default": (
        "Find the cause, fix it with the smallest change that works, and check the fix.",
        "找出原因，用能解決問題的最小修改修好它，並確認修好了。",
    ),
    "runs.task.selection": (
        "I am looking at {path}, lines {lines}:",
        "我正在看 {path} 第 {lines} 行：",
    ),
    "runs.task.current_file": ("I am looking at {path}.", "我正在看 {path}。"),
    "runs.task.clipped": (
        "The selection is long, so only lines {shown} are shown above (at most {max_lines} "
        "lines or {max_kb} KB). Lines {rest} are not included: read {path} with read_file "
        "(or search it with grep) when you need them.",
        "選取的範圍太長，上面只附了第 {shown} 行（最多 {max_lines} 行或 {max_kb} KB）。"
        "第 {rest} 行沒有附上：需要時請用 read_file 讀 {path}（或用 grep 搜尋）。",
    ),
    "runs.task.clipped_none": (
        "The selection (lines {lines}) is too large to include: its first line alone is over "
        "{max_kb} KB. Read {path} with read_file (or search it with grep) to see it.",
        "選取的範圍（第 {lines} 行）太大，沒有附上：光是第一行就超過 {max_kb} KB。"
        "請用 read_file 讀 {path}（或用 grep 搜尋）來看內容。",
    ),
    "runs.task.attached": ("Attached by the user:", "使用者附上的內容："),
    "runs.task.attached_text": (
        "{path}, lines {lines}, as the user's editor has it:",
        "{path} 第 {lines} 行，使用者編輯器裡的內容：",
    ),
    "runs.task.attached_text_outside": (
        "{path}, lines {lines} (outside the workspace: your tools cannot open or change it):",
        "{path} 第 {lines} 行（在工作目錄外面：你的工具不能打開或修改它）：",
    ),
    "runs.task.attached_link": (
        "{path} (read it with read_file when you need it)",
        "{path}（需要時用 read_file 讀取）",
    ),
    "runs.task.attached_link_outside": (
        "{path} (outside the workspace or hidden by the ignore list: your tools cannot open "
        "it; ask the user to paste what matters)",
        "{path}（在工作目錄外面或在忽略清單裡：你的工具打不開它；需要的話請使用者貼上內容）",
    ),
    "runs.task.attached_binary": (
        "{name} (binary content, not shown)",
        "{name}（二進位內容，沒有附上）",
    ),
    "runs.task.attached_clipped": (
        "(lines {rest} are not included: the attachment is longer than an excerpt may be)",
        "（第 {rest} 行沒有附上：附件比摘錄的上限還長）",
    ),
}

MESSAGES: Final[dict[str, tuple[str, str]]] = {**_RUNS, **_TASKS}
