/**
 * Every sentence the extension itself shows, in English and Traditional Chinese.
 *
 * The server speaks in the user's `kesi.locale`, and whatever the server says the extension
 * shows as it came: the answers of /cost, /permissions, /revoke and /reset (`lines`,
 * `message`), a run's end (`statusText`, the seed's Day 18 `bill`). What is left here is the
 * extension's own UI (its commands, its server's state, its review), in the same setting so
 * one conversation never switches language halfway.
 */

import type { RunStatus, Usage, VerdictStatus } from "./protocol";

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
  "status.tooltip.verdict": "Last run: {verdict}: {detail}",
  "verify.verified": "verified",
  "verify.failed": "verification failed",
  "verify.unverified": "unverified",
  "plan.title": "Plan ({done}/{total} done)",
  "plan.summary": "{done}/{total} done",
  "plan.step": "step {number}/{total}: {content}",
  "plan.status.completed": "done",
  "plan.status.in_progress": "in progress",
  "plan.status.pending": "to do",
  "plan.finished": "run ended",
  "run.title.compact": "Compact the conversation",
  "bill.compaction": "summary of the conversation: {tokens} · ${cost}",
  "bill.search": "search: {requests} requests · {tokens} · ${cost}",
  "bill.tokens": "input {input}, cache read {read}, cache write {write}, output {output}",
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
  "status.tooltip.verdict": "上一輪：{verdict}：{detail}",
  "verify.verified": "已驗證",
  "verify.failed": "驗證失敗",
  "verify.unverified": "未驗證",
  "plan.title": "計畫（完成 {done}/{total}）",
  "plan.summary": "完成 {done}/{total}",
  "plan.step": "第 {number}/{total} 步：{content}",
  "plan.status.completed": "完成",
  "plan.status.in_progress": "進行中",
  "plan.status.pending": "待辦",
  "plan.finished": "這一輪已結束",
  "run.title.compact": "濃縮對話",
  "bill.compaction": "濃縮對話：{tokens} · ${cost}",
  "bill.search": "搜尋：{requests} 次請求 · {tokens} · ${cost}",
  "bill.tokens": "input {input}、快取讀 {read}、快取寫 {write}、output {output}",
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

function count(n: number): string {
  return n.toLocaleString("en-US");
}

/** One line of the bill for a summary or a search: its tokens (cache included) and cost. */
export function formatBill(
  key: "bill.compaction" | "bill.search",
  usage: Usage,
  locale: Locale,
): string {
  const tokens = t("bill.tokens", locale, {
    input: count(usage.inputTokens),
    read: count(usage.cacheReadTokens),
    write: count(usage.cacheWriteTokens),
    output: count(usage.outputTokens),
  });
  return t(key, locale, {
    requests: count(usage.requests),
    tokens,
    cost: formatUsd(usage.costUsd),
  });
}

/** A run's status in words: the server's `statusText` (its locale), else this client's. */
export function runEndWord(
  finished: { status: RunStatus; statusText?: string },
  locale: Locale,
): string {
  if (typeof finished.statusText === "string" && finished.statusText !== "") {
    return finished.statusText;
  }
  switch (finished.status) {
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

export function verdictWord(status: VerdictStatus, locale: Locale): string {
  switch (status) {
    case "verified":
      return t("verify.verified", locale);
    case "failed":
      return t("verify.failed", locale);
    default:
      return t("verify.unverified", locale);
  }
}
