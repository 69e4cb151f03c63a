"""Messages of the permission gate: key -> (English, Traditional Chinese as the seed words it).

The Chinese is the seed's (Day 14) word for word where it has one: the red-line refusal, the
classifier's reasons, the refusals, and the /permissions and /revoke lines. The refusals are
exactly what the model receives (Day 16 quotes 「錯誤：使用者拒絕執行這個指令。」 as such), with
nothing added: "do not send the same request again" is the system prompt's rule (Day 16's
「被拒絕時換個做法或問清楚，不要重送同一個請求」), not a sentence of each refusal. The English
mirrors them. Reasons the seed did not have (the gaps closed here) are marked "new" below. The
prompt's own wording (`[需要授權]`, `理由：`) lives with the LSP adapter, which asks the question.
"""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    # What the model gets back when a command or an edit does not run.
    "permissions.denied": (
        "Error: this operation was blocked by the safety rules ({reason}); it was not run.",
        "錯誤：這個操作被安全規則擋下來了（{reason}），沒有執行。",
    ),
    "permissions.refused_command": (
        "Error: the user refused to run this command.",
        "錯誤：使用者拒絕執行這個指令。",
    ),
    "permissions.refused_edit": (  # the seed's code (Days 11-15 digest)
        "Error: the user refused to modify this file.",
        "錯誤：使用者拒絕修改這個檔案。",
    ),
    # The classifier's reasons (seed classify_command / hard_denial_reason).
    "permissions.reason.escalation": (
        "privilege escalation is not allowed: {command}",
        "不允許提權指令 {command}",
    ),
    "permissions.reason.removes_root": (
        "this command would delete the root or home directory",
        "這個指令會刪掉根目錄或家目錄",
    ),
    "permissions.reason.removes_system_dir": (  # new: /usr, /etc, /work...
        "this command would delete a top-level directory of the system",
        "這個指令會刪掉系統最上層的目錄",
    ),
    "permissions.reason.metachars": (
        "the command has shell special characters; what it really does goes beyond the text",
        "指令含有 shell 特殊字元，實際會做什麼超出字面",
    ),
    "permissions.reason.empty": (
        "cannot tell what this command does",
        "看不出這條指令要做什麼",
    ),
    "permissions.reason.unparseable": ("the command cannot be parsed", "指令解析不了"),
    "permissions.reason.not_listed": (
        "{command} is not on the read-only list that runs without asking",
        "{command} 不在自動放行的唯讀清單裡",
    ),
    "permissions.reason.git_options": (
        "the git command has options that write files or run external programs",
        "Git 指令含有會寫檔或執行外部程式的參數",
    ),
    "permissions.reason.forbidden_path": (
        "the command touches a path closed to the tools",
        "指令碰到了不開放給工具讀取的路徑",
    ),
    "permissions.reason.invisible": (  # new
        "the command has invisible or control characters; what you see may not be what runs",
        "指令含有看不見的字元或控制字元，看到的可能跟實際執行的不一樣",
    ),
    "permissions.reason.never_ends": (  # new: tail -f
        "{command} keeps running until it is stopped",
        "{command} 會一直執行到被中止為止",
    ),
    "permissions.reason.changes_system": (  # new: date -s
        "{command} changes the system, it is not read-only",
        "{command} 會改動系統設定，不是唯讀操作",
    ),
    "permissions.reason.read_only": ("all read-only commands", "都是唯讀指令"),
    # /permissions and /revoke.
    "permissions.granted_commands": ("Allowed commands: {items}", "已放行的指令：{items}"),
    "permissions.granted_files": ("Allowed files: {items}", "已放行的檔案：{items}"),
    "permissions.revoked": (
        "(all grants for this session have been revoked)",
        "（這個 session 的授權已全部收回）",
    ),
}
