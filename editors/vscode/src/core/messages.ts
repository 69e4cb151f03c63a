/**
 * Every sentence the extension itself shows, in English and Traditional Chinese.
 *
 * The server speaks in the user's `kesi.locale`; the client follows the same setting so one
 * conversation never switches language halfway. The zh-TW lines for /cost, /permissions and
 * /revoke are the seed's own wording (Days 14 and 18).
 */

import type { PermissionsResult, RunStatus, Usage } from "./protocol";

export type Locale = "en" | "zh-TW";

export function asLocale(value: unknown): Locale {
  return value === "zh-TW" ? "zh-TW" : "en";
}

const EN = {
  "cost.requests": "This session: {n} requests",
  "cost.tokens": "input {input}, output {output}",
  "cost.cache": "cache read {read}, cache write {write}",
  "cost.total": "total ${cost}",
  "cost.partial": "(includes interrupted requests counted up to where they stopped)",
  "permissions.commands": "Allowed commands: {list}",
  "permissions.files": "Allowed files: {list}",
  "permissions.none": "(none)",
  "permissions.separator": ", ",
  "permissions.editsAccepted":
    "Every file edit is allowed without asking (kesi.approvals is acceptEdits).",
  "revoke.done": "All grants for this session have been revoked.",
  "reset.done": "KeSi's history and read records for this session are cleared.",
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
  "run.end.done": "done",
  "run.end.cancelled": "cancelled",
  "run.end.failed": "failed",
  "run.end.limit": "stopped at a limit",
  "review.ask": "KeSi wants to edit {path}. Keep this change?",
  "review.askNew": "KeSi wants to create {path}. Keep this file?",
  "review.title": "{path} (KeSi's proposed edit)",
  "review.titleNew": "{path} (new file proposed by KeSi)",
  "review.accept": "Accept",
  "review.acceptSession": "Accept for This Session",
  "review.reject": "Reject",
  "status.idle": "KeSi",
  "status.running": "KeSi: running",
  "status.tooltip.idle": "KeSi · session cost ${cost} · click to show the output",
  "status.tooltip.running": "KeSi is working · session cost ${cost} · click to cancel",
  "status.tooltip.stopped": "KeSi's server is not running · click to show the log",
  "changes.top": "at the top",
  "changes.after": "after line {line}",
  "changes.line": "line {line}",
  "changes.lines": "lines {first}–{last}",
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
} as const;

export type MessageKey = keyof typeof EN;

const ZH_TW: Record<MessageKey, string> = {
  "cost.requests": "這個 session 共 {n} 次請求",
  "cost.tokens": "input {input}、output {output}",
  "cost.cache": "快取讀 {read}、快取寫 {write}",
  "cost.total": "合計 ${cost}",
  "cost.partial": "（其中有中斷的請求，只算到中斷前收到的部分）",
  "permissions.commands": "已放行的指令：{list}",
  "permissions.files": "已放行的檔案：{list}",
  "permissions.none": "（無）",
  "permissions.separator": "、",
  "permissions.editsAccepted": "所有改檔都不先問，直接允許（kesi.approvals 是 acceptEdits）。",
  "revoke.done": "（這個 session 的授權已全部收回）",
  "reset.done": "已清空這個 session 的對話與讀檔紀錄。",
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
  "run.end.done": "完成",
  "run.end.cancelled": "已中斷",
  "run.end.failed": "失敗",
  "run.end.limit": "到達上限而停止",
  "review.ask": "KeSi 想修改 {path}，要保留這個修改嗎？",
  "review.askNew": "KeSi 想新增 {path}，要保留這個檔案嗎？",
  "review.title": "{path}（KeSi 提議的修改）",
  "review.titleNew": "{path}（KeSi 提議的新檔案）",
  "review.accept": "接受",
  "review.acceptSession": "這個 session 都接受",
  "review.reject": "拒絕",
  "status.idle": "KeSi",
  "status.running": "KeSi：執行中",
  "status.tooltip.idle": "KeSi · 這個 session 花了 ${cost} · 點一下看輸出",
  "status.tooltip.running": "KeSi 正在工作 · 這個 session 花了 ${cost} · 點一下中斷",
  "status.tooltip.stopped": "KeSi 的伺服器沒有在執行 · 點一下看紀錄",
  "changes.top": "檔案開頭",
  "changes.after": "第 {line} 行之後",
  "changes.line": "第 {line} 行",
  "changes.lines": "第 {first}–{last} 行",
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

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** The `/cost` report (seed Day 18): requests, tokens, cache when used, total. */
export function formatCost(usage: Usage, locale: Locale): string[] {
  const lines = [
    t("cost.requests", locale, { n: count(usage.requests) }),
    t("cost.tokens", locale, {
      input: count(usage.inputTokens),
      output: count(usage.outputTokens),
    }),
  ];
  if (usage.cacheReadTokens || usage.cacheWriteTokens) {
    lines.push(
      t("cost.cache", locale, {
        read: count(usage.cacheReadTokens),
        write: count(usage.cacheWriteTokens),
      }),
    );
  }
  lines.push(t("cost.total", locale, { cost: formatUsd(usage.costUsd) }));
  if (usage.partial) {
    lines.push(t("cost.partial", locale));
  }
  return lines;
}

/** The `/permissions` report (seed Day 14): one line for commands, one for files. */
export function formatPermissions(result: PermissionsResult, locale: Locale): string[] {
  const list = (items: string[]): string =>
    items.length
      ? [...items].sort().join(t("permissions.separator", locale))
      : t("permissions.none", locale);
  const lines = [
    t("permissions.commands", locale, { list: list(result.commands) }),
    t("permissions.files", locale, { list: list(result.files) }),
  ];
  if (result.approvals === "acceptEdits") {
    lines.push(t("permissions.editsAccepted", locale));
  }
  if (result.rulesLine) {
    lines.push(result.rulesLine);
  }
  return lines;
}

export function runEndWord(status: RunStatus, locale: Locale): string {
  switch (status) {
    case "done":
      return t("run.end.done", locale);
    case "cancelled":
      return t("run.end.cancelled", locale);
    case "limit":
      return t("run.end.limit", locale);
    default:
      return t("run.end.failed", locale);
  }
}
