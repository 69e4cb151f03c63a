import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asLocale, formatCost, formatPermissions, t } from "../core/messages";

const usage = {
  requests: 3,
  inputTokens: 16227,
  outputTokens: 530,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0.0189,
};

describe("formatCost", () => {
  it("reports requests, tokens and the total like the seed's /cost", () => {
    assert.deepEqual(formatCost(usage, "en"), [
      "This session: 3 requests",
      "input 16,227, output 530",
      "total $0.0189",
    ]);
    assert.deepEqual(formatCost(usage, "zh-TW"), [
      "這個 session 共 3 次請求",
      "input 16,227、output 530",
      "合計 $0.0189",
    ]);
  });

  it("adds the cache line only when the cache was used, and flags partial counts", () => {
    const lines = formatCost(
      { ...usage, cacheReadTokens: 1200, cacheWriteTokens: 0, partial: true },
      "zh-TW",
    );
    assert.ok(lines.includes("快取讀 1,200、快取寫 0"));
    assert.ok(lines.some((line) => line.includes("中斷")));
  });
});

describe("formatPermissions", () => {
  it("lists grants sorted, or says there are none, in the seed's words", () => {
    assert.deepEqual(
      formatPermissions({ commands: ["pytest -q", "git status"], files: [] }, "zh-TW"),
      ["已放行的指令：git status、pytest -q", "已放行的檔案：（無）"],
    );
    assert.deepEqual(formatPermissions({ commands: [], files: ["src/a.py"] }, "en"), [
      "Allowed commands: (none)",
      "Allowed files: src/a.py",
    ]);
  });

  it("says when kesi.approvals lets every edit through", () => {
    assert.deepEqual(
      formatPermissions({ commands: [], files: [], approvals: "acceptEdits" }, "en"),
      [
        "Allowed commands: (none)",
        "Allowed files: (none)",
        "Every file edit is allowed without asking (kesi.approvals is acceptEdits).",
      ],
    );
  });
});

describe("t", () => {
  it("fills placeholders and leaves unknown ones visible", () => {
    assert.equal(
      t("server.badSetting", "en", { path: "/x" }),
      "kesi.serverPath is /x, which is not an executable file.",
    );
    assert.equal(t("server.failed", "en"), "kesi-lsp did not start: {reason}");
  });

  it("falls back to English for unknown locales", () => {
    assert.equal(asLocale("fr"), "en");
    assert.equal(asLocale("zh-TW"), "zh-TW");
    assert.equal(
      t("revoke.done", asLocale(undefined)),
      "All grants for this session have been revoked.",
    );
  });
});
