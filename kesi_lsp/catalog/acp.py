"""Messages of the `acp` domain: key -> (English, Traditional Chinese).

What an Agent Client Protocol client shows (Zed's agent panel, JetBrains, CodeCompanion,
agent-shell): tool-call titles, the permission question's context, what to do after a run's
end, protocol errors a person may read, and what the model is told when an edit could not be
delivered through the client. The permission answers themselves are the seed's (`permissions`).
"""

from __future__ import annotations

from typing import Final

_TOOLS: Final[dict[str, tuple[str, str]]] = {
    "acp.tool.read_file": ("Read {path}", "讀取 {path}"),
    "acp.tool.list_files": ("List {path}", "列出 {path}"),
    "acp.tool.glob": ("Find files {pattern}", "找檔案 {pattern}"),
    "acp.tool.grep": ("Search {pattern}", "搜尋 {pattern}"),
    "acp.tool.grep_in": ("Search {pattern} in {path}", "在 {path} 搜尋 {pattern}"),
    "acp.tool.edit_file": ("Edit {path}", "修改 {path}"),
    "acp.tool.write_file": ("Write {path}", "寫入 {path}"),
    "acp.tool.run_command": ("Run {command}", "執行 {command}"),
    "acp.tool.todo": ("Update the plan", "更新計畫"),
    "acp.tool.other": ("{tool}", "{tool}"),
    "acp.tool.task": ("Background task {id}: {command}", "背景工作 {id}：{command}"),
    "acp.task.dropped": (
        "… (earlier output not shown)",
        "…（較早的輸出未顯示）",
    ),
    "acp.permission.reason": ("Why it asks: {reason}", "理由：{reason}"),
    "acp.permission.edit_reason": (
        "Why it asks: KeSi changes a file only once you have seen the change "
        "(kesi.approvals is ask).",
        "理由：KeSi 要先讓你看過修改，才會改這個檔案（kesi.approvals 是 ask）。",
    ),
}

_SESSION: Final[dict[str, tuple[str, str]]] = {
    "acp.dirs_not_supported": (
        "Extra folders are not supported: KeSi works only inside {cwd}; these were left out: "
        "{dirs}.",
        "不支援額外的資料夾：KeSi 只在 {cwd} 裡面工作；這些沒有加入：{dirs}。",
    ),
    "acp.sandbox_off": (
        "Warning: {status}. Shell commands KeSi runs in {folder} are not confined; only the "
        "permission prompts stand in the way.",
        "注意：{status}。KeSi 在 {folder} 執行的 shell 指令不受限制，只靠授權詢問把關。",
    ),
    "acp.stopped": ("KeSi stopped: {text}", "KeSi 停下來了：{text}"),
    "acp.mode.option": ("Approvals", "授權"),
    "acp.mode.ask": ("Ask before edits", "改檔前先問"),
    "acp.mode.ask_about": (
        "Every file edit is shown for review before it lands; commands are asked as ever.",
        "每次改檔都先給你看過再套用；指令照常詢問。",
    ),
    "acp.mode.accept_edits": ("Accept edits", "直接套用修改"),
    "acp.mode.accept_edits_about": (
        "File edits land without asking (each card still shows its diff); commands are asked "
        "as ever.",
        "改檔不先問，直接套用（每張卡片還是會顯示差異）；指令照常詢問。",
    ),
}

_HINTS: Final[dict[str, tuple[str, str]]] = {
    "acp.hint.missing_key": (
        "Put it in the environment of the agent's command: Zed's agent_servers entry (\"env\"), "
        'JetBrains\' acp.json ("env"), or the shell that starts your editor.',
        '請把它放進啟動 agent 的指令環境：Zed 的 agent_servers 設定（"env"）、JetBrains 的 '
        'acp.json（"env"），或啟動編輯器的 shell。',
    ),
    "acp.hint.unreachable": (
        "Check the network connection and the API address (ANTHROPIC_BASE_URL in the agent's "
        "environment), then send the message again.",
        "請檢查網路連線和 API 位址（agent 環境裡的 ANTHROPIC_BASE_URL），再送一次訊息。",
    ),
    "acp.hint.max_turns": (
        "Ask KeSi to continue from here, split the task into smaller steps, or raise "
        "KESI_MAX_TURNS in the agent's environment.",
        "可以請 KeSi 接著做、把任務拆小，或在 agent 的環境裡調高 KESI_MAX_TURNS。",
    ),
    "acp.hint.max_tokens": (
        "Ask for a smaller step (one file or one function at a time), or raise "
        "KESI_MAX_TOKENS in the agent's environment.",
        "請 KeSi 一次只做一小步（一個檔案或一個函式），或在 agent 的環境裡調高 KESI_MAX_TOKENS。",
    ),
    "acp.hint.context_window": (
        "The conversation no longer fits the model's context window: start a new thread, then "
        "ask again.",
        "對話已經塞不進模型的 context window：開一個新的對話串，再問一次。",
    ),
    "acp.hint.tool_failures": (
        "Look at the failed tool calls above to see what went wrong, then rephrase the request "
        "(for example, name the file or the command to use).",
        "看看上面失敗的工具呼叫，找出哪裡出錯，再換個說法重新提出要求（例如指明要用的檔案或指令）。",
    ),
}

_ERRORS: Final[dict[str, tuple[str, str]]] = {
    "acp.error.invalid_params": (
        "Invalid params for {method}: {problems}",
        "{method} 的參數不正確：{problems}",
    ),
    "acp.error.unknown_session": (
        "Unknown session {session}: this KeSi process has no such session (it may have been "
        "started by an earlier KeSi). Start a new one with session/new.",
        "不認得的 session {session}：這個 KeSi 程序沒有這個 session（可能是之前的 KeSi 開的）。"
        "請用 session/new 開一個新的。",
    ),
    "acp.error.busy": (
        "KeSi is still working on the previous message in this session. Wait for it to "
        "finish, or cancel it, then send again.",
        "KeSi 還在處理這個 session 的上一則訊息。等它做完，或先取消，再送一次。",
    ),
    "acp.error.cwd_relative": (
        "session/new: cwd must be an absolute path (it becomes the folder KeSi may work in); "
        "got {cwd}.",
        "session/new：cwd 必須是絕對路徑（它就是 KeSi 可以工作的資料夾）；收到的是 {cwd}。",
    ),
    "acp.error.cwd_missing": (
        "session/new: cwd {cwd} is not a folder on this machine.",
        "session/new：cwd {cwd} 不是這台機器上的資料夾。",
    ),
    "acp.error.empty_prompt": (
        "session/prompt: the message is empty; write what KeSi should do.",
        "session/prompt：訊息是空的；請寫下要 KeSi 做什麼。",
    ),
    "acp.error.unsupported_content": (
        "session/prompt: KeSi reads text, files and links; it cannot take {kind} content "
        "(promptCapabilities says so).",
        "session/prompt：KeSi 只讀文字、檔案和連結；不能收 {kind} 內容"
        "（promptCapabilities 有寫）。",
    ),
    "acp.error.no_login": (
        "KeSi has no sign-in: it uses the Anthropic API key in its environment "
        "(ANTHROPIC_API_KEY).",
        "KeSi 沒有登入流程：它用環境裡的 Anthropic API 金鑰（ANTHROPIC_API_KEY）。",
    ),
    "acp.error.no_modes": (
        "Unknown mode {mode}; KeSi's modes are {modes}.",
        "不認得的模式 {mode}；KeSi 的模式是 {modes}。",
    ),
    "acp.error.no_option": (
        "session/set_config_option: unknown option {option}; KeSi's only option is {known}.",
        "session/set_config_option：不認得的選項 {option}；KeSi 只有 {known} 這個選項。",
    ),
}

_EDITS: Final[dict[str, tuple[str, str]]] = {
    "acp.edit.write_failed": (
        "Not applied: the editor could not write {path} ({error}). Nothing was changed.",
        "沒有套用：編輯器沒辦法寫入 {path}（{error}）。什麼都沒有改。",
    ),
}

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    **_TOOLS,
    **_SESSION,
    **_HINTS,
    **_ERRORS,
    **_EDITS,
}
