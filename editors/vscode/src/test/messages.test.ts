import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { asLocale, serverLines, t } from "../core/messages";

describe("serverLines", () => {
  it("shows a session command's lines as the server worded them", () => {
    const cost = {
      requests: 1,
      costUsd: 0.0002,
      lines: ["這個 session 共 1 次請求", "input 100、output 20", "合計 $0.0002"],
    };
    assert.deepEqual(serverLines(cost), cost.lines);
  });

  it("takes the message of an answer that has one line", () => {
    const reset = { message: "（日記與檔案版本紀錄已清空，我們重新開始）" };
    assert.deepEqual(serverLines(reset), [reset.message]);
  });

  it("says nothing of an answer without words (an older server)", () => {
    assert.equal(serverLines({}), undefined);
    assert.equal(serverLines({ lines: [] }), undefined);
    assert.equal(serverLines(null), undefined);
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
    assert.equal(t("cancel.nothing", asLocale(undefined)), "No KeSi run is in progress.");
  });
});
