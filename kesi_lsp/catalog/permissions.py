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
    "permissions.reason.system_files": (  # new: design §3
        "this command would delete or overwrite system files",
        "這個指令會刪掉或覆寫系統檔案",
    ),
    "permissions.reason.block_device": (  # new
        "this command would write straight to a disk device",
        "這個指令會直接寫入磁碟裝置",
    ),
    "permissions.reason.makes_filesystem": (  # new
        "this command would make a filesystem or repartition a disk, erasing what is on it",
        "這個指令會建立檔案系統或重新分割磁碟，上面的資料會被清掉",
    ),
    "permissions.reason.kernel_module": (  # new
        "loading or unloading kernel modules is not allowed: {command}",
        "不允許載入或卸載核心模組：{command}",
    ),
    "permissions.reason.setuid": (  # new
        "setting setuid/setgid bits or file capabilities is not allowed: {command}",
        "不允許設定 setuid／setgid 位元或檔案權能：{command}",
    ),
    "permissions.reason.immutable": (  # new: chattr +i, chflags schg
        "changing the immutable or append-only flags of files is not allowed: {command}",
        "不允許變更保護檔案的不可修改或只能附加旗標：{command}",
    ),
    "permissions.reason.device_node": (  # new: mknod x b 8 0
        "creating device files (a new name for a disk) is not allowed: {command}",
        "不允許建立裝置檔（等於替磁碟取新名字）：{command}",
    ),
    "permissions.reason.stops_system": (  # new: issue 24 item 3
        "{command} would shut down or restart the whole machine",
        "{command} 會關掉或重新啟動整台電腦",
    ),
    "permissions.reason.kills_everything": (  # new
        "{command} would kill every process (of the user, or of the whole system)",
        "{command} 會砍掉所有行程（整個使用者的，或整個系統的）",
    ),
    "permissions.reason.fork_bomb": (  # new
        "this command is a fork bomb: it starts copies of itself until the machine stops "
        "responding",
        "這個指令是 fork 炸彈：會不斷複製自己，直到電腦沒有反應",
    ),
    "permissions.reason.recursive_system": (  # new: chmod -R / chown -R /
        "{command} -R on / or a system folder would change every file in it, with no record of "
        "what it was",
        "對根目錄或系統資料夾做 {command} -R 會改動裡面每一個檔案，而且沒有原本設定的紀錄",
    ),
    "permissions.reason.forced_push": (  # new
        "a forced git push replaces the remote's history; what it drops may exist nowhere else",
        "強制 git push 會蓋掉遠端的歷史，被蓋掉的東西可能別處都沒有",
    ),
    "permissions.reason.clean_outside": (  # new
        "git clean -f outside the workspace (in home or /) would delete untracked files for good",
        "在工作目錄以外（家目錄或根目錄）執行 git clean -f，會把沒有追蹤的檔案永久刪掉",
    ),
    "permissions.reason.git_blob": (  # new: git show <blob id>
        "{revision} names a stored file, and git would print its contents (maybe one closed to "
        "the tools, such as a committed .env)",
        "{revision} 指向一個存起來的檔案，Git 會印出它的內容"
        "（可能是不開放給工具讀取的檔案，像是提交過的 .env）",
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
    "permissions.reason.option_not_read_only": (  # new: design §3
        "{command}: {option} writes files, runs other programs or is not read-only",
        "{command}：{option} 會寫檔、執行其他程式，或不是唯讀操作",
    ),
    "permissions.reason.folder_holds_closed": (  # new
        "the folder {folder} holds files closed to the tools (such as .env or .git), and this "
        "command reads what is inside it",
        "資料夾 {folder} 裡有不開放給工具讀取的檔案（像是 .env 或 .git），這個指令會讀到裡面的內容",
    ),
    "permissions.reason.shadowed": (  # new
        "{command} would run {path} from the workspace, not the system's {command}",
        "{command} 實際會執行工作目錄裡的 {path}，不是系統的 {command}",
    ),
    "permissions.reason.rule_denied": (  # new: the permission rules (Day 14's promise)
        'your permission rule "{pattern}" ({source}) denies it',
        "你的權限規則「{pattern}」（{source}）不允許",
    ),
    "permissions.reason.rule_asks": (
        'your permission rule "{pattern}" ({source}) says to ask',
        "你的權限規則「{pattern}」（{source}）要求先問過你",
    ),
    "permissions.reason.rule_allows": (
        'allowed by your permission rule "{pattern}" ({source})',
        "你的權限規則「{pattern}」（{source}）允許",
    ),
    "permissions.rule_denied_edit": (  # shaped like the seed's refusals: one sentence
        'Error: your permission rule "{pattern}" ({source}) does not allow changing this file.',
        "錯誤：你的權限規則「{pattern}」（{source}）不允許修改這個檔案。",
    ),
    "permissions.rules": ("Permission rules: {items}", "權限規則：{items}"),
    "permissions.rule_item": ("{kind} {pattern} ({source})", "{kind} {pattern}（{source}）"),
    "permissions.kind.allow": ("allow", "允許"),
    "permissions.kind.ask": ("ask", "詢問"),
    "permissions.kind.deny": ("deny", "拒絕"),
    "permissions.source.init": ("initialization options", "初始化選項"),
    "permissions.source.user": ("user settings", "使用者設定"),
    "permissions.ran_as": (
        "(ran as: {command}; commands that run without asking run with the programs and options "
        "their configuration names turned off: git's external programs, sed's e/r/w, ripgrep's "
        "config file)",
        "（實際執行：{command}；不經詢問就執行的指令會關掉設定裡指定的外部程式和選項："
        "git 的外部程式、sed 的 e／r／w、ripgrep 的設定檔）",
    ),
    "permissions.reason.read_only": ("all read-only commands", "都是唯讀指令"),
    # /permissions and /revoke.
    "permissions.granted_commands": ("Allowed commands: {items}", "已放行的指令：{items}"),
    "permissions.granted_files": ("Allowed files: {items}", "已放行的檔案：{items}"),
    "permissions.revoked": (
        "(all grants for this session have been revoked)",
        "（這個 session 的授權已全部收回）",
    ),
    # Day 14's three answers (放行嗎？[y=這次 / a=這個 session 都好 / N=不要]), as a front end's
    # buttons or options: the ACP adapter's permission options, the safe one first.
    "permissions.answer.deny": ("Deny", "不要"),
    "permissions.answer.once": ("Allow once", "這次"),
    "permissions.answer.session": ("Allow for this session", "這個 session 都好"),
}
