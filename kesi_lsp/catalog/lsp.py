"""Messages of the `lsp` domain: key -> (English, Traditional Chinese as the seed words it).

What the editor shows (prompts, progress, errors, the output log) and what the model is told
when an edit could not be delivered through the editor.
"""

from __future__ import annotations

from typing import Final

_COMMANDS: Final[dict[str, tuple[str, str]]] = {
    "lsp.no_folder": (
        "KeSi works inside a workspace folder, and none is open. Open a folder, then try again.",
        "KeSi 只在工作資料夾裡做事，現在沒有開任何資料夾。請先開一個資料夾再試一次。",
    ),
    "lsp.not_a_file": (
        "KeSi only works on files saved inside a workspace folder, not on {uri}. Save the file "
        "in the project first.",
        "KeSi 只處理存在工作資料夾裡的檔案，{uri} 不是。請先把它存進專案裡。",
    ),
    "lsp.outside_folders": (
        "{path} is outside every workspace folder, so KeSi will not touch it. The workspace "
        "folder is KeSi's fence; open the file's folder as a workspace folder to work on it.",
        "{path} 不在任何一個工作資料夾裡，KeSi 不會碰它。工作資料夾就是 KeSi 的圍籬；"
        "要處理這個檔案，請把它所在的資料夾加進工作區。",
    ),
    "lsp.ignored_path": (
        "{path} is on KeSi's ignore list (secrets, dependencies, caches), so KeSi will not "
        "read it or send it to the model.",
        "{path} 在 KeSi 的忽略清單上（機密、套件、快取），KeSi 不會讀它，也不會送給模型。",
    ),
    "lsp.unreadable": (
        "KeSi cannot read {path}: {error}",
        "KeSi 讀不到 {path}：{error}",
    ),
    "lsp.busy": (
        "KeSi is already working in this folder. Wait for it to finish, or cancel it "
        "(KeSi: Cancel), then try again.",
        "KeSi 正在這個資料夾裡工作。等它做完，或先取消（KeSi: Cancel）再試一次。",
    ),
    "lsp.busy_reset": (
        "KeSi is working in this folder; cancel the run before clearing the conversation.",
        "KeSi 正在這個資料夾裡工作；要清空對話，請先取消這一輪。",
    ),
    "lsp.action.fix_this": ("KeSi: fix this", "KeSi：修這裡"),
    "lsp.reset_done": (  # Day 10's /reset (Day 04 cleared only the diary)
        "(history and file version records cleared; starting over)",
        "（日記與檔案版本紀錄已清空，我們重新開始）",
    ),
}

_PROMPTS: Final[dict[str, tuple[str, str]]] = {
    "lsp.prompt.command": (  # Day 14's ask_user("執行指令：{command}", reason)
        "[Permission needed] Run command: {command}",
        "[需要授權] 執行指令：{command}",
    ),
    "lsp.prompt.reason": ("Why it asks: {reason}", "理由：{reason}"),
    # Day 14's question: 放行嗎？[y=這次 / a=這個 session 都好 / N=不要]. Its three answers, the
    # prompt's buttons, are the gate's words (`permissions.answer.*`, the ACP adapter's too).
    "lsp.prompt.question": ("Allow it?", "放行嗎？"),
    # For a client that may not show the buttons with the question (lsp-mode: after TAB).
    "lsp.prompt.question_listed": ("Allow it? ({answers})", "放行嗎？（{answers}）"),
    "lsp.prompt.answer_separator": (" / ", "／"),
    # What the third answer covers, said with the question (issue 32): the seed's grants are
    # this exact command, or this one file, until the session ends.
    "lsp.prompt.scope_command": (
        '"{answer}" runs this exact command without asking until the session ends; any other '
        "command is still asked.",
        "「{answer}」：這個 session 結束前，一字不差的這條指令不再問你；其他指令還是會問。",
    ),
    "lsp.prompt.scope_edit": (
        '"{answer}" lets KeSi change {path} without asking until the session ends; changes to '
        "other files are still shown to you first.",
        "「{answer}」：這個 session 結束前，KeSi 改 {path} 不再問你；改其他檔案還是會先給你看。",
    ),
    "lsp.prompt.edit": (  # Day 14's ask_user("{tool} 修改檔案：{file_path}")
        "[Permission needed] {tool} changes file: {path}",
        "[需要授權] {tool} 修改檔案：{path}",
    ),
    "lsp.prompt.create": (
        "[Permission needed] {tool} creates file: {path}",
        "[需要授權] {tool} 建立檔案：{path}",
    ),
    "lsp.prompt.diff_cut": (
        "… {count} more diff lines: the whole diff is in the KeSi log",
        "……還有 {count} 行差異，完整的差異在 KeSi 的記錄裡",
    ),
    "lsp.prompts_unavailable": (
        "This editor cannot show KeSi's permission prompts (window/showMessageRequest), so "
        "KeSi denies every edit and command that needs your approval. To let KeSi change files "
        'here, set kesi.approvals to "acceptEdits" (edits land without asking; undo them in '
        "the editor); commands that need a yes stay refused.",
        "這個編輯器不能顯示 KeSi 的授權詢問（window/showMessageRequest），所以需要你同意的"
        "修改和指令，KeSi 一律拒絕。想讓 KeSi 在這裡改檔案，請把 kesi.approvals 設成"
        "「acceptEdits」（改檔不先問，直接套用，可以在編輯器裡復原）；需要你點頭的指令還是會被拒絕。",
    ),
    "lsp.prompts_unavailable_commands": (
        "This editor cannot show KeSi's permission prompts (window/showMessageRequest), so "
        "KeSi denies every command that needs your approval. File edits still land without "
        "asking (kesi.approvals is acceptEdits).",
        "這個編輯器不能顯示 KeSi 的授權詢問（window/showMessageRequest），所以需要你同意的"
        "指令，KeSi 一律拒絕。改檔還是不先問，直接套用（kesi.approvals 是 acceptEdits）。",
    ),
    "lsp.review.proposal": (  # the title of a client's own review (VS Code's diff tab)
        "KeSi's proposal: {path}",
        "KeSi 的提議：{path}",
    ),
    "lsp.review.annotation": (
        "Review KeSi's change: tick what to apply, untick what to reject.",
        "檢查 KeSi 的修改：勾選要套用的部分，不要的就取消勾選。",
    ),
}

_EDITS: Final[dict[str, tuple[str, str]]] = {
    "lsp.edit.label": ("KeSi: {tool} {path}", "KeSi: {tool} {path}"),
    "lsp.edit.no_apply": (
        "Not applied: {path} is open in an editor that cannot apply edits "
        "(workspace/applyEdit), and KeSi will not write behind its back. Nothing was changed.",
        "沒有套用：{path} 開在一個不能套用修改（workspace/applyEdit）的編輯器裡，"
        "KeSi 不會瞞著編輯器寫檔。什麼都沒有改。",
    ),
    "lsp.edit.apply_error": (
        "Not applied: the editor failed to apply the edit to {path} ({error}). Nothing was "
        "changed.",
        "沒有套用：編輯器套用 {path} 的修改時出錯（{error}）。什麼都沒有改。",
    ),
    "lsp.edit.refused": (
        "Not applied: the editor refused the edit to {path}: {reason}. Nothing was changed.",
        "沒有套用：編輯器拒絕了 {path} 的修改：{reason}。什麼都沒有改。",
    ),
    "lsp.edit.no_reason": ("no reason given", "沒有說明原因"),
    "lsp.edit.skipped": (
        "Not confirmed: the editor answered that it applied the edit to {path}, but it reported "
        "no change to that buffer. It may have skipped the edit (the buffer changed meanwhile) "
        "or hold it without saying so (vim-lsp does, for a buffer in no window). Nothing was "
        "saved to disk. Ask the user to check {path} in the editor, then read the file again "
        "before you edit it.",
        "沒有確認：編輯器回覆已經套用 {path} 的修改，但沒有回報那個緩衝區有任何變化。"
        "它可能略過了這次修改（緩衝區在這段時間改過），也可能改了卻沒有說"
        "（vim-lsp 對不在任何視窗裡的緩衝區就是這樣）。磁碟上什麼都沒有存。"
        "請使用者先在編輯器裡看看 {path}，再重新讀取檔案，然後才改。",
    ),
}

_RUNS: Final[dict[str, tuple[str, str]]] = {
    "lsp.sandbox_off": (
        "KeSi in {folder}: {status}. Shell commands KeSi runs there are not confined; only the "
        "permission prompts stand in the way.",
        "KeSi 在 {folder}：{status}。KeSi 在那裡執行的 shell 指令不受限制，只靠授權詢問把關。",
    ),
    "lsp.permissions.edits_accepted": (
        "Every file edit is allowed without asking (kesi.approvals is acceptEdits).",
        "所有改檔都不先問，直接允許（kesi.approvals 是 acceptEdits）。",
    ),
    "lsp.run_failed": ("KeSi stopped: {text}", "KeSi 停下來了：{text}"),
    "lsp.hint.unreachable": (
        "Check the network connection and the API address (ANTHROPIC_BASE_URL or the "
        "kesi.baseUrl setting), then run the command again.",
        "請檢查網路連線和 API 位址（ANTHROPIC_BASE_URL 或 kesi.baseUrl 設定），再執行一次。",
    ),
    "lsp.hint.limit": (
        "Ask KeSi to continue from here, split the task into smaller steps, or raise the "
        "kesi.maxTurns setting.",
        "可以請 KeSi 接著做、把任務拆小，或調高 kesi.maxTurns 設定。",
    ),
    "lsp.hint.max_tokens": (
        "Ask for a smaller step (one file or one function at a time), or raise the "
        "kesi.maxTokens setting.",
        "請 KeSi 一次只做一小步（一個檔案或一個函式），或調高 kesi.maxTokens 設定。",
    ),
    "lsp.hint.context_window": (
        "The conversation no longer fits the model's context window: start a fresh one with "
        "{reset}, then ask again.",
        "對話已經塞不進模型的 context window：用{reset}重新開始一段對話，再問一次。",
    ),
    "lsp.hint.tool_failures": (
        "Look at the tool errors in the KeSi output to see what went wrong, then rephrase the "
        "request (for example, name the file or the command to use).",
        "看看 KeSi 輸出裡的工具錯誤訊息，找出哪裡出錯，再換個說法重新提出要求"
        "（例如指明要用的檔案或指令）。",
    ),
    "lsp.run_limit": ("KeSi stopped at a limit: {text}", "KeSi 碰到上限停下來了：{text}"),
    "lsp.run_end": ("KeSi: {line}", "KeSi：{line}"),
    "lsp.internal_error": (
        "KeSi server error: {error} (details in the server log).",
        "KeSi server 錯誤：{error}（細節在 server 記錄裡）。",
    ),
    "lsp.status.done": ("done", "完成"),
    "lsp.status.cancelled": ("cancelled", "已取消"),
    "lsp.status.failed": ("failed", "失敗"),
    "lsp.status.limit": ("stopped at a limit", "碰到上限"),
    "lsp.progress.starting": ("starting", "開始"),
    "lsp.progress.working": ("working", "進行中"),
    # Model round trips are KeSi's bookkeeping, not the user's progress: tooltips only.
    "lsp.progress.turn": ("turn {turn} of at most {max}", "第 {turn} 輪（最多 {max} 輪）"),
    # A search sub-agent's round trip, beside the run's step in a status text.
    "lsp.progress.search_turn": (
        "search agent: turn {turn} of at most {max}",
        "搜尋分身：第 {turn} 輪（最多 {max} 輪）",
    ),
    "lsp.progress.edits": ("files changed: {count}", "改了 {count} 個檔案"),
}

_LOG: Final[dict[str, tuple[str, str]]] = {
    "lsp.log.kesi": ("KeSi > ", "KeSi > "),
    "lsp.log.tool": ("  [tool] {tool}: {detail}", "  [執行工具] {tool}：{detail}"),
    "lsp.log.tool_done": ("    → {summary}", "    → {summary}"),
    "lsp.log.tool_error": ("    ✗ {summary}", "    ✗ {summary}"),
    "lsp.log.notice": ("  ({text})", "  （{text}）"),
    "lsp.log.edit": ("  [edited] {path}", "  [已修改] {path}"),
    "lsp.log.stopped": ("KeSi > {text}", "KeSi > {text}"),
    "lsp.log.plan": ("  [plan] {plan}", "  [計畫] {plan}"),
    "lsp.log.verified": ("  [{status}] {detail}", "  [{status}] {detail}"),
    "lsp.log.startup": ("  {text}", "  {text}"),  # Day 15's start-up lines, as printed
    "lsp.log.bill": ("  {bill}", "  {bill}"),  # Day 18: the bill, indented as the seed prints it
}

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    **_COMMANDS,
    **_PROMPTS,
    **_EDITS,
    **_RUNS,
    **_LOG,
}
