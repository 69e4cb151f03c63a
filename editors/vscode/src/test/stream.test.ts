import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { StreamEvent } from "../core/protocol";
import { StreamRenderer, indentDiff, toolDetail } from "../core/stream";

function renderer(): { out: () => string; r: StreamRenderer } {
  let text = "";
  const r = new StreamRenderer({ append: (s) => (text += s) }, () => "en");
  return { out: () => text, r };
}

const run = "r1";

describe("StreamRenderer", () => {
  it("appends model text exactly as it streams", () => {
    const { out, r } = renderer();
    r.runStarted(run, "Fix this · calc.py:3");
    for (const piece of ["The bug ", "is in `add`", ": it subtracts."]) {
      r.event({ runId: run, kind: "text", text: piece });
    }
    assert.equal(out(), "━━ Fix this · calc.py:3 ━━\nThe bug is in `add`: it subtracts.");
  });

  it("puts tool calls on marked lines of their own, even after unfinished text", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "text", text: "Let me run the tests" });
    r.event({
      runId: run,
      kind: "toolStart",
      tool: "run_command",
      input: { command: "pytest -q" },
    });
    r.event({
      runId: run,
      kind: "toolEnd",
      tool: "run_command",
      isError: true,
      summary: "exit 1 · 1 failed",
    });
    r.event({ runId: run, kind: "text", text: "One test fails." });
    assert.equal(
      out(),
      "━━ t ━━\nLet me run the tests\n⚙ run_command: pytest -q\n  ✗ exit 1 · 1 failed\nOne test fails.",
    );
  });

  it("marks a successful tool with a tick and keeps the summary on one line", () => {
    const { out, r } = renderer();
    r.event({
      runId: run,
      kind: "toolEnd",
      tool: "read_file",
      isError: false,
      summary: "12 lines\nof text",
    });
    assert.match(out(), /\n {2}✓ 12 lines ⏎ of text\n$/);
  });

  it("titles a run it was not told about, once", () => {
    const { out, r } = renderer();
    r.event({ runId: run, kind: "text", text: "a" });
    r.event({ runId: run, kind: "text", text: "b" });
    assert.equal(out(), "━━ KeSi run ━━\nab");
  });

  it("separates consecutive runs with a blank line", () => {
    const { out, r } = renderer();
    r.runStarted("a", "first");
    r.runFinished({ runId: "a", status: "done", text: "ok", usage: usage(0.0123) });
    r.runStarted("b", "second");
    assert.equal(out(), "━━ first ━━\n━━ done · $0.0123 ━━\n\n━━ second ━━\n");
  });

  it("ends a run with the server's status word and the seed's bill (Day 18)", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    const bill =
      "（本輪 3 次請求，input 16,227、output 530、快取讀 1,000、快取寫 200，$0.0189，" +
      "其中 1 次只算到中斷前收到的部分；累計 $0.0189）";
    r.runFinished({ runId: run, status: "done", statusText: "完成", bill, usage: usage(0.0189) });
    assert.equal(out(), `━━ t ━━\n━━ 完成 · ${bill} ━━\n`);
  });

  it("shows no bill for a run that made no request", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.runFinished({
      runId: run,
      status: "failed",
      statusText: "失敗",
      bill: null,
      usage: usage(0),
    });
    assert.equal(out(), "━━ t ━━\n━━ 失敗 ━━\n");
  });

  it("prints the start-up lines as the seed does, not as warnings (Day 15)", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "notice", notice: "workspace", text: "工作目錄：/p" });
    r.event({
      runId: run,
      kind: "notice",
      notice: "sandbox",
      text: "指令沙箱：開啟（/usr/bin/bwrap）",
    });
    assert.equal(out(), "━━ t ━━\n  工作目錄：/p\n  指令沙箱：開啟（/usr/bin/bwrap）\n");
  });

  it("shows the server's words for a run that did not finish normally", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "text", text: "Working" });
    r.runFinished({ runId: run, status: "cancelled", text: "Interrupted; you can ask again." });
    assert.equal(out(), "━━ t ━━\nWorking\n⚠ Interrupted; you can ask again.\n━━ cancelled ━━\n");
  });

  it("does not repeat the final text of a run that is done (it already streamed)", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "text", text: "Fixed.\n" });
    r.runFinished({ runId: run, status: "done", text: "Fixed.\n" });
    assert.equal(out(), "━━ t ━━\nFixed.\n━━ done ━━\n");
  });

  it("shows notices and ignores usage events", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    const events: StreamEvent[] = [
      { runId: run, kind: "usage", session: usage(1) },
      { runId: run, kind: "notice", text: "API overloaded (529); retrying in 2 s" },
    ];
    events.forEach((e) => r.event(e));
    assert.equal(out(), "━━ t ━━\n⚠ API overloaded (529); retrying in 2 s\n");
  });

  it("speaks Traditional Chinese when the locale says so", () => {
    let text = "";
    const r = new StreamRenderer({ append: (s) => (text += s) }, () => "zh-TW");
    r.runFinished({ runId: run, status: "limit", text: "" });
    assert.equal(text, "━━ KeSi 執行 ━━\n━━ 到達上限而停止 ━━\n");
  });
});

describe("toolDetail", () => {
  it("shows the command, path or pattern, never whole file contents", () => {
    assert.equal(toolDetail({ command: "pytest -q" }), "pytest -q");
    assert.equal(
      toolDetail({ file_path: "src/calc.py", old_string: "a\nb", new_string: "c" }),
      "src/calc.py",
    );
    assert.equal(toolDetail({ pattern: "def add", path: "src" }), "def add · src");
    assert.equal(toolDetail({}), "");
    assert.equal(toolDetail(undefined), "");
  });

  it("clips long input to one line", () => {
    const detail = toolDetail({ command: `echo ${"x".repeat(300)}\necho done` });
    assert.equal(detail.length, 120);
    assert.ok(!detail.includes("\n"));
    assert.ok(detail.endsWith("…"));
  });
});

function usage(costUsd: number) {
  return {
    requests: 1,
    inputTokens: 10,
    outputTokens: 5,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd,
  };
}

describe("edits", () => {
  it("shows an applied edit with its diff indented under a marked line", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({
      runId: run,
      kind: "edit",
      tool: "edit_file",
      path: "calc.py",
      diff: "--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n",
    });
    assert.equal(
      out(),
      "━━ t ━━\n✎ calc.py\n    @@ -1,2 +1,2 @@\n     def add(a, b):\n    -    return a - b\n    +    return a + b\n",
    );
  });

  it("keeps removed lines that look like headers, and clips long diffs", () => {
    const body = Array.from({ length: 50 }, (_, i) => `+line ${i}`).join("\n");
    const shown = indentDiff(`--- a/x.sql\n+++ b/x.sql\n@@ -1 +1,50 @@\n--- a comment\n${body}\n`);
    assert.ok(shown.startsWith("    @@ -1 +1,50 @@\n    --- a comment\n"));
    assert.ok(shown.endsWith("    … 12 more lines\n"));
    assert.equal(shown.split("\n").length, 42);
  });

  it("ignores turn events (the progress notification shows them)", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({ runId: run, kind: "turn", turn: 2, maxTurns: 20 });
    assert.equal(out(), "━━ t ━━\n");
  });
});

describe("a search sub-agent, summaries and resumed conversations", () => {
  const nested = { parentToolUseId: "toolu_s", agent: "search", depth: 1 };

  it("indents the search's lines under its call and bills it after the call's result", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    const events: StreamEvent[] = [
      {
        runId: run,
        kind: "toolStart",
        toolUseId: "toolu_s",
        tool: "search_agent",
        input: { task: "Where is LIMIT set?" },
      },
      { runId: run, kind: "text", text: "Searching.\nFirst grep.", ...nested },
      { runId: run, kind: "toolStart", tool: "grep", input: { pattern: "LIMIT" }, ...nested },
      { runId: run, kind: "toolEnd", tool: "grep", isError: false, summary: "a.py:1", ...nested },
      {
        runId: run,
        kind: "usage",
        purpose: "search",
        request: usage(0.001),
        subtotal: { ...usage(0.003), requests: 3 },
        ...nested,
      },
      {
        runId: run,
        kind: "toolEnd",
        toolUseId: "toolu_s",
        tool: "search_agent",
        isError: false,
        summary: "LIMIT is 42 (config.py:1).",
      },
    ];
    events.forEach((e) => r.event(e));
    assert.equal(
      out(),
      [
        "━━ t ━━",
        "⚙ search_agent: Where is LIMIT set?",
        "    Searching.",
        "    First grep.",
        "    ⚙ grep: LIMIT",
        "      ✓ a.py:1",
        "  ✓ LIMIT is 42 (config.py:1).",
        "    $ search: 3 requests · input 10, cache read 0, cache write 0, output 5 · $0.0030",
        "",
      ].join("\n"),
    );
  });

  it("gives a summary of the conversation its own bill line, and calm notices a calm mark", () => {
    const { out, r } = renderer();
    r.runStarted(run, "t");
    r.event({
      runId: run,
      kind: "notice",
      notice: "resume",
      text: "Continuing this folder's conversation.",
    });
    r.event({ runId: run, kind: "notice", notice: "compaction", text: "Summarised 12 messages." });
    r.event({ runId: run, kind: "usage", purpose: "compaction", request: usage(0.0021) });
    r.event({ runId: run, kind: "usage", purpose: "turn", request: usage(0.5) });
    assert.equal(
      out(),
      "━━ t ━━\nℹ Continuing this folder's conversation.\nℹ Summarised 12 messages.\n" +
        "$ summary of the conversation: input 10, cache read 0, cache write 0, output 5 · $0.0021\n",
    );
  });
});
