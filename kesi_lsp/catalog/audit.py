"""Messages of the `audit` domain: the audit log's records as lines a user reads (`kesi.audit`,
`kesi-lsp audit`)."""

from __future__ import annotations

from typing import Final

MESSAGES: Final[dict[str, tuple[str, str]]] = {
    "audit.title": (
        "KeSi audit log of {folder} ({path}), newest last:",
        "KeSi 在 {folder} 的稽核紀錄（{path}），最新的在最後：",
    ),
    "audit.empty": (
        "KeSi audit log of {folder}: nothing recorded yet ({path}).",
        "KeSi 在 {folder} 的稽核紀錄：還沒有任何紀錄（{path}）。",
    ),
    "audit.empty_since": (
        "KeSi audit log of {folder}: nothing recorded since {since}.",
        "KeSi 在 {folder} 的稽核紀錄：{since} 之後沒有任何紀錄。",
    ),
    "audit.off": (
        "KeSi's audit log is off (the auditLog setting); older records stay in {path}.",
        "KeSi 的稽核紀錄已關閉（auditLog 設定）；先前的紀錄仍在 {path}。",
    ),
    "audit.unavailable": (
        "KeSi keeps no audit log here: no state folder (neither XDG_STATE_HOME nor HOME is set), "
        "or it would be inside the workspace.",
        "KeSi 在這裡不保存稽核紀錄：沒有狀態資料夾（XDG_STATE_HOME 與 HOME 都沒設定），"
        "或是它會落在工作目錄裡。",
    ),
    "audit.line.command": (
        "{time} command `{command}`: {decision}{ran}",
        "{time} 指令 `{command}`：{decision}{ran}",
    ),
    "audit.line.edit": (
        "{time} {tool} {path} ({hunks} hunks): {decision}; {outcome}",
        "{time} {tool} {path}（{hunks} 個區塊）：{decision}；{outcome}",
    ),
    "audit.line.change": (
        "{time} {path}{lines}: {action} by you (a change of run {run})",
        "{time} {path}{lines}：你{action}了（第 {run} 輪的修改）",
    ),
    "audit.line.mcp_call": (
        "{time} MCP {server}/{tool}: {decision}{result}",
        "{time} MCP {server}/{tool}：{decision}{result}",
    ),
    "audit.line.network": (
        "{time} network {host}: {allowed}, {decision}",
        "{time} 網路 {host}：{allowed}，{decision}",
    ),
    "audit.line.task": (
        "{time} background task {task} `{command}`: {state}, after {seconds} s, {bytes} bytes out",
        "{time} 背景工作 {task} `{command}`：{state}，{seconds} 秒，輸出 {bytes} 位元組",
    ),
    "audit.started_task": (
        "; started {sandbox} as background task {task}",
        "；在 {sandbox} 裡啟動為背景工作 {task}",
    ),
    "audit.line.other": ("{time} {kind}: {fields}", "{time} {kind}：{fields}"),
    "audit.ran": (
        "; ran {sandbox}, exit {code}, {seconds} s, {bytes} bytes out",
        "；在 {sandbox} 裡執行，結束碼 {code}，{seconds} 秒，輸出 {bytes} 位元組",
    ),
    "audit.timed_out": (
        "; ran {sandbox}, stopped after {seconds} s (time limit), {bytes} bytes out",
        "；在 {sandbox} 裡執行，{seconds} 秒後因逾時被停止，輸出 {bytes} 位元組",
    ),
    "audit.sandbox.none": ("without a sandbox", "沒有沙箱的環境"),
    "audit.by.red_line": ("blocked by the red line ({reason})", "被紅線擋下（{reason}）"),
    "audit.by.rule.deny": ("denied by your rule ({reason})", "被你的規則拒絕（{reason}）"),
    "audit.by.rule.ask": ("asked by your rule, then {answer}", "你的規則要求詢問，然後{answer}"),
    "audit.by.rule.allow": ("allowed by your rule ({reason})", "你的規則允許（{reason}）"),
    "audit.by.classifier": ("run without asking ({reason})", "不用詢問就執行（{reason}）"),
    "audit.by.grant": ("allowed by your grant for this session", "依你這個 session 的授權允許"),
    "audit.by.user": ("asked ({reason}), {answer}", "詢問過（{reason}），{answer}"),
    "audit.by.accept_edits": (
        "not reviewed (approvals: acceptEdits)",
        "沒有審閱（approvals: acceptEdits）",
    ),
    "audit.network.user": ("asked, {answer}", "詢問過，{answer}"),
    "audit.network.session": (
        "you had refused it earlier this session",
        "你在這個 session 稍早已拒絕過",
    ),
    "audit.network.setting": (
        "not in kesi.sandboxNetworkAllow (mode allowList)",
        "不在 kesi.sandboxNetworkAllow 裡（allowList 模式）",
    ),
    "audit.network.denied": ("kesi.sandboxNetworkDeny names it", "kesi.sandboxNetworkDeny 有它"),
    "audit.network.address": (
        "it resolves to an address the sandbox never reaches",
        "它解析到沙箱永遠不會連的位址",
    ),
    "audit.network.sni": (
        "its TLS connection asked for another name",
        "它的 TLS 連線要的是另一個名稱",
    ),
    "audit.network.limit": ("the command reached the proxy's limit", "這個指令用到了代理的上限"),
    "audit.reason.mcp": ("an MCP tool call", "MCP 工具呼叫"),
    "audit.answer.always": ("you allowed it always", "你永遠允許"),
    "audit.answer.once": ("you allowed it once", "你允許了這一次"),
    "audit.answer.session": ("you allowed it for the session", "你允許了整個 session"),
    "audit.answer.deny": ("you denied it", "你拒絕了"),
    "audit.answer.none": ("no answer", "沒有回答"),
    "audit.outcome.applied": ("applied", "已套用"),
    "audit.outcome.partial": ("applied in part (the hunks you kept)", "部分套用（你保留的區塊）"),
    "audit.outcome.rejected": ("not applied", "沒有套用"),
    "audit.outcome.failed": ("failed", "失敗"),
    "audit.action.kept": ("kept", "保留"),
    "audit.action.undone": ("undone", "復原"),
    "audit.allowed": ("allowed", "允許"),
    "audit.blocked": ("blocked", "擋下"),
    "audit.result.error": ("; failed", "；失敗"),
    "audit.result.ok": ("; {bytes} bytes back in {seconds} s", "；{seconds} 秒回傳 {bytes} 位元組"),
    "audit.cli.no_folder": (
        "kesi-lsp audit: {folder} is not a folder.",
        "kesi-lsp audit：{folder} 不是資料夾。",
    ),
    "audit.cli.bad_since": (
        "kesi-lsp audit: --since {value!r} is not a time; give an age (30m, 2h, 7d, 1w), a date "
        "(2026-12-01) or a date and time (2026-12-01T14:30).",
        "kesi-lsp audit：--since {value!r} 不是時間；請給一段時間（30m、2h、7d、1w）、日期"
        "（2026-12-01）或日期與時間（2026-12-01T14:30）。",
    ),
    "audit.cli.bad_limit": (
        "kesi-lsp audit: --limit {value!r} is not a count; give a whole number, 0 for every "
        "record.",
        "kesi-lsp audit：--limit {value!r} 不是數量；請給整數，0 表示全部紀錄。",
    ),
}
