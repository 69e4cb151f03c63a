/**
 * Every sentence the extension itself shows, in English and Traditional Chinese.
 *
 * The server speaks in the user's `kesi.locale`, and whatever the server says the extension
 * shows as it came: every line of a run's story, its plan and its end (`line`, `lines`), the
 * words of an edit review, the answers of /cost, /permissions, /revoke and /reset (`lines`,
 * `message`). What is left here is the extension's own UI (its commands, its server's state,
 * its views), in the same setting so one conversation never switches language halfway.
 */

export type Locale = "en" | "zh-TW";

export function asLocale(value: unknown): Locale {
  return value === "zh-TW" ? "zh-TW" : "en";
}

const EN = {
  "cancel.nothing": "No KeSi run is in progress.",
  "fix.noEditor": "Open a file and select the code KeSi should fix.",
  "fix.notFile": "KeSi can only fix files on disk.",
  "ask.prompt": "Ask KeSi",
  "ask.placeholder": "What should KeSi do? (the selection, if any, comes along)",
  "server.notRunning": "KeSi's server is not running: {reason}",
  "server.notFound":
    "kesi-lsp was not found (looked in {tried}). Install it (pip install kesi-lsp) or set kesi.serverPath.",
  "server.badSetting": "kesi.serverPath is {path}, which is not an executable file.",
  "server.failed": "kesi-lsp did not start: {reason}",
  "server.stopped": "it stopped",
  "action.openSettings": "Open Settings",
  "action.showLog": "Show Log",
  "run.title.fix": "Fix this · {where}",
  "run.title.ask": "Ask · {prompt}",
  "run.title.other": "KeSi run",
  "status.idle": "KeSi",
  "status.running": "KeSi: running",
  "status.tooltip.idle": "KeSi · session cost ${cost} · click to show the output",
  "status.tooltip.running": "KeSi is working · session cost ${cost} · click to cancel",
  "status.tooltip.stopped": "KeSi's server is not running · click to show the log",
  "status.tooltip.verdict": "Last run: {verdict}: {detail}",
  "tasks.status": "KeSi tasks: {count}",
  "tasks.pick": "KeSi's background tasks: pick a running one to stop it",
  "mcp.pickLogin": "Sign in to which MCP server?",
  "mcp.pickLogout": "Sign out of which MCP server?",
  "mcp.noRemote": "No remote (http) MCP server is configured for this folder.",
  "plan.finished": "run ended",
  "run.title.compact": "Compact the conversation",
  "changes.top": "at the top",
  "changes.after": "after line {line}",
  "changes.line": "line {line}",
  "changes.lines": "lines {first}–{last}",
  "changes.diffTitle": "KeSi's change: {path}",
  "changes.state.pending": "not reviewed yet",
  "changes.state.kept": "kept",
  "changes.state.undone": "undone",
  "changes.state.modified": "changed since",
  "changes.counts": "−{removed} +{added}",
  "changes.pending": "{n} not reviewed",
  "changes.created": "created by the run",
  "changes.deleted": "deleted by the run",
  "changes.none": "KeSi has not changed any file yet.",
  "changes.nothingPending": "No change of KeSi waits for your review.",
  "panel.empty": "Ask KeSi something below, or use KeSi: Fix This on the code you select.",
  "panel.log": "KeSi's session",
  "panel.you": "You",
  "panel.reply": "Reply to KeSi",
  "panel.placeholder": "Ask KeSi, or reply to continue the conversation (Ctrl+Enter sends)",
  "panel.send": "Send",
  "panel.cancel": "Cancel",
  "panel.question": "KeSi asks",
  "panel.answered": "You answered: {answer}",
  "panel.working": "KeSi is working",
  "panel.hunk.accept": "Accept",
  "panel.hunk.reject": "Reject",
  "panel.hunk.label": "Change {index} of {total}",
  "panel.hunk.accepted": "accepted",
  "panel.hunk.rejected": "rejected",
  "panel.hunks.answered": "{accepted} of {total} changes accepted",
  "status.waiting.question": "KeSi: waiting for you — answer a question",
  "status.waiting.review": "KeSi: waiting for you — review {count} changes",
  "status.waiting.review1": "KeSi: waiting for you — review 1 change",
  "status.tooltip.waiting": "KeSi waits for your answer · click to go to it",
  "fix.instruction": "Fix this: anything KeSi should know? (optional, Enter to go)",
  "fix.instructionPlaceholder":
    "e.g. keep the public signature; Enter alone: find the cause and fix it",
} as const;

export type MessageKey = keyof typeof EN;

const ZH_TW: Record<MessageKey, string> = {
  "cancel.nothing": "KeSi 現在沒有在執行。",
  "fix.noEditor": "請先打開檔案，選取要 KeSi 修的程式碼。",
  "fix.notFile": "KeSi 只能修磁碟上的檔案。",
  "ask.prompt": "問 KeSi",
  "ask.placeholder": "要 KeSi 做什麼？（有選取的話會一起附上）",
  "server.notRunning": "KeSi 的伺服器沒有在執行：{reason}",
  "server.notFound":
    "找不到 kesi-lsp（找過 {tried}）。請安裝（pip install kesi-lsp）或設定 kesi.serverPath。",
  "server.badSetting": "kesi.serverPath 是 {path}，但它不是可以執行的檔案。",
  "server.failed": "kesi-lsp 沒有啟動：{reason}",
  "server.stopped": "它已經停止",
  "action.openSettings": "開啟設定",
  "action.showLog": "查看紀錄",
  "run.title.fix": "修這裡 · {where}",
  "run.title.ask": "提問 · {prompt}",
  "run.title.other": "KeSi 執行",
  "status.idle": "KeSi",
  "status.running": "KeSi：執行中",
  "status.tooltip.idle": "KeSi · 這個 session 花了 ${cost} · 點一下看輸出",
  "status.tooltip.running": "KeSi 正在工作 · 這個 session 花了 ${cost} · 點一下中斷",
  "status.tooltip.stopped": "KeSi 的伺服器沒有在執行 · 點一下看紀錄",
  "status.tooltip.verdict": "上一輪：{verdict}：{detail}",
  "tasks.status": "KeSi 背景工作：{count}",
  "tasks.pick": "KeSi 的背景工作：選一個執行中的來停止它",
  "mcp.pickLogin": "要登入哪一個 MCP 伺服器？",
  "mcp.pickLogout": "要登出哪一個 MCP 伺服器？",
  "mcp.noRemote": "這個資料夾沒有設定遠端（http）MCP 伺服器。",
  "plan.finished": "這一輪已結束",
  "run.title.compact": "濃縮對話",
  "changes.top": "檔案開頭",
  "changes.after": "第 {line} 行之後",
  "changes.line": "第 {line} 行",
  "changes.lines": "第 {first}–{last} 行",
  "changes.diffTitle": "KeSi 的修改：{path}",
  "changes.state.pending": "還沒檢查",
  "changes.state.kept": "保留",
  "changes.state.undone": "已復原",
  "changes.state.modified": "之後被改過",
  "changes.counts": "−{removed} +{added}",
  "changes.pending": "{n} 處還沒檢查",
  "changes.created": "這次執行建立的",
  "changes.deleted": "這次執行刪掉的",
  "changes.none": "KeSi 還沒改過任何檔案。",
  "changes.nothingPending": "沒有等你檢查的 KeSi 修改。",
  "panel.empty": "在下面問 KeSi，或在選取的程式碼上用「KeSi：修這裡」。",
  "panel.log": "KeSi 的對話",
  "panel.you": "你",
  "panel.reply": "回覆 KeSi",
  "panel.placeholder": "問 KeSi，或回覆以繼續這段對話（Ctrl+Enter 送出）",
  "panel.send": "送出",
  "panel.cancel": "中斷",
  "panel.question": "KeSi 想問你",
  "panel.answered": "你的回答：{answer}",
  "panel.working": "KeSi 正在工作",
  "panel.hunk.accept": "接受",
  "panel.hunk.reject": "拒絕",
  "panel.hunk.label": "第 {index} 處變更，共 {total} 處",
  "panel.hunk.accepted": "已接受",
  "panel.hunk.rejected": "已拒絕",
  "panel.hunks.answered": "接受了 {total} 處變更中的 {accepted} 處",
  "status.waiting.question": "KeSi：等你回答一個問題",
  "status.waiting.review": "KeSi：等你檢查 {count} 處修改",
  "status.waiting.review1": "KeSi：等你檢查 1 處修改",
  "status.tooltip.waiting": "KeSi 在等你的回答 · 點一下前往",
  "fix.instruction": "修這裡：有什麼要 KeSi 注意的嗎？（可以不填，按 Enter 開始）",
  "fix.instructionPlaceholder": "例如：不要改公開的函式簽名；直接按 Enter：找出原因並修好",
};

export function t(
  key: MessageKey,
  locale: Locale,
  vars: Record<string, string | number> = {},
): string {
  const template = locale === "zh-TW" ? ZH_TW[key] : EN[key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/** Dollars the way the seed prints them: four decimals. */
export function formatUsd(cost: number): string {
  return cost.toFixed(4);
}

/** The server's words for a session command's answer: its `lines`, else its `message`. */
export function serverLines(result: unknown): string[] | undefined {
  if (typeof result !== "object" || result === null) {
    return undefined;
  }
  const { lines, message } = result as { lines?: unknown; message?: unknown };
  if (Array.isArray(lines) && lines.length > 0) {
    return lines.map(String);
  }
  return typeof message === "string" ? [message] : undefined;
}
