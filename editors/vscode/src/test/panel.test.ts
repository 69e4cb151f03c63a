import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { renderMarkdown } from "../core/markdown";
import { pageHtml, transcriptHtml } from "../core/panelHtml";
import { statusView } from "../core/runState";
import { parseHunks } from "../core/hunks";
import { Transcript } from "../core/transcript";

describe("renderMarkdown", () => {
  it("renders what a model writes: code spans, bold, lists, fences", () => {
    const html = renderMarkdown(
      "The bug is in `add`: it **subtracts**.\n\n- one\n- two\n\n```py\nx = 1 < 2\n```",
    );
    assert.match(html, /<p>The bug is in <code>add<\/code>: it <strong>subtracts<\/strong>\.<\/p>/);
    assert.match(html, /<ul><li>one<\/li><li>two<\/li><\/ul>/);
    assert.match(html, /<pre class="code" data-lang="py"><code>x = 1 &lt; 2<\/code><\/pre>/);
  });

  it("never lets the model's text become markup", () => {
    const html = renderMarkdown("<img src=x onerror=alert(1)> [a](javascript:alert(1)) `<b>`");
    assert.doesNotMatch(html, /<img|<b>|<a /);
    assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(html, /<code>&lt;b&gt;<\/code>/);
  });

  it("lets emphasis wrap a code span", () => {
    assert.equal(
      renderMarkdown("**`add` subtracts**"),
      "<p><strong><code>add</code> subtracts</strong></p>",
    );
  });

  it("shows a fence that is still streaming as code", () => {
    assert.match(renderMarkdown("```\nhalf"), /<pre class="code"><code>half<\/code><\/pre>/);
  });
});

describe("Transcript", () => {
  it("gathers streamed text, folds a tool call to its line, keeps one plan per run", () => {
    const t = new Transcript();
    t.runStarted("r", "Fix this · calc.py:2", undefined);
    t.event({ runId: "r", kind: "text", text: "Let me " }, "x");
    t.event({ runId: "r", kind: "text", text: "read it." }, "x");
    t.event(
      {
        runId: "r",
        kind: "toolStart",
        tool: "read_file",
        toolUseId: "a",
        line: "  [tool] read_file: calc.py",
      },
      "x",
    );
    t.event(
      {
        runId: "r",
        kind: "toolEnd",
        tool: "read_file",
        toolUseId: "a",
        isError: false,
        lines: ["    → read 2 lines"],
      },
      "x",
    );
    const plan = {
      runId: "r",
      items: [],
      title: "Plan: 0 of 2 done",
      lines: ["▶ a", "○ b"],
      current: "step 1 of 2: a",
    };
    t.plan(plan, "x");
    t.plan({ ...plan, title: "Plan: 1 of 2 done", lines: ["✓ a", "▶ b"] }, "x");
    const kinds = t.entries.map((entry) => entry.kind);
    assert.deepEqual(kinds, ["run", "text", "tool", "plan"]);
    const html = transcriptHtml(t.entries, "en");
    assert.match(html, /<p>Let me read it\.<\/p>/);
    assert.match(
      html,
      /<details class="tool done depth0"><summary>\[tool\] read_file: calc.py<\/summary><pre>→ read 2 lines<\/pre><\/details>/,
    );
    assert.equal(html.match(/Plan: /g)?.length, 2, "the title once, in the section and its label");
    assert.match(html, /Plan: 1 of 2 done/);
    assert.doesNotMatch(html, /Plan: 0 of 2 done/);
  });

  it("asks with the server's buttons until answered, and a cancelled run answers the safe one", () => {
    const t = new Transcript();
    t.runStarted("r", "Ask · go", "go");
    t.ask({
      id: "q1",
      runId: "r",
      lines: ["[Permission needed] Run command: pytest"],
      question: "Allow it?",
      actions: ["Deny", "Allow once"],
      cancel: "Deny",
    });
    assert.equal(t.openQuestion()?.id, "q1");
    const open = transcriptHtml(t.entries, "en");
    assert.match(open, /data-question="q1" data-answer="Deny">Deny<\/button>/);
    assert.match(open, /aria-label="KeSi asks"/);
    t.finished({ runId: "r", status: "cancelled", line: "cancelled · (this run: …)" }, [], "x");
    assert.equal(t.openQuestion(), undefined);
    const done = transcriptHtml(t.entries, "zh-TW");
    assert.match(done, /你的回答：Deny/);
    assert.match(done, /<div class="line">cancelled · \(this run: …\)<\/div>/);
    assert.match(done, /<div class="you" aria-label="你">go<\/div>/);
  });
});

describe("the panel page", () => {
  it("allows only its own script and style: no remote content", () => {
    const html = pageHtml(
      {
        script: "vscode-webview://x/panel.js",
        style: "vscode-webview://x/panel.css",
        cspSource: "vscode-webview://x",
      },
      "N0NCE",
      "en",
    );
    assert.match(
      html,
      /default-src 'none'; style-src vscode-webview:\/\/x; script-src 'nonce-N0NCE'/,
    );
    assert.doesNotMatch(html, /https?:/);
    assert.match(html, /<textarea id="prompt" rows="3" aria-label="Reply to KeSi"/);
  });
});

describe("the status bar while KeSi works and waits", () => {
  const base = { running: true, sessionCostUsd: 0.01 };
  it("carries the step, with the round trip only in the tooltip", () => {
    const view = statusView(
      { ...base, progress: "step 2 of 3: Fix it · $0.0100", turn: "turn 3 of at most 20" },
      true,
      "en",
    );
    assert.equal(view.text, "$(loading~spin) KeSi · step 2 of 3: Fix it · $0.0100");
    assert.match(view.tooltip, /turn 3 of at most 20/);
    assert.equal(view.command, "kesi.cancel");
  });
  it("says what KeSi waits for, and a click goes there", () => {
    const review = statusView(
      { ...base, waiting: { id: "q", what: "review", changes: 2 } },
      true,
      "en",
    );
    assert.equal(review.text, "$(bell-dot) KeSi: waiting for you — review 2 changes");
    assert.equal(review.command, "kesi.showQuestion");
    const question = statusView(
      { ...base, waiting: { id: "q", what: "question", changes: 0 } },
      true,
      "zh-TW",
    );
    assert.equal(question.text, "$(bell-dot) KeSi：等你回答一個問題");
  });
  it("counts a review's changes by its hunks", () => {
    assert.equal(parseHunks("--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n@@ -5 +5 @@\n-z\n+w").length, 2);
    assert.equal(parseHunks(undefined).length, 0);
  });
});

describe("an inline review", () => {
  const hunks = parseHunks("--- a\n+++ b\n@@ -1 +1 @@\n-x = 1\n+x = <2>\n@@ -5 +5 @@\n-z\n+w\n");
  function reviewing(): Transcript {
    const t = new Transcript();
    t.runStarted("r", "Fix this", undefined);
    t.ask({
      id: "q1",
      runId: "r",
      lines: ["Edit calc.py"],
      question: "Apply it?",
      actions: ["Deny", "Allow"],
      hunks: hunks.map((h) => ({ header: h.header, shown: h.shown })),
    });
    return t;
  }

  it("shows each hunk's lines, escaped, with its own Accept and Reject", () => {
    const html = transcriptHtml(reviewing().entries, "en");
    assert.match(html, /<span class="del">-x = 1<\/span>/);
    assert.match(html, /<span class="add">\+x = &lt;2&gt;<\/span>/);
    assert.equal(html.match(/data-hunk="\d" data-question="q1" data-accept="true"/g)?.length, 2);
    assert.match(html, /aria-label="Reject · Change 2 of 2"/);
  });

  it("records a hunk's decision and shows it; an answered review takes no more", () => {
    const t = reviewing();
    assert.equal(t.decideHunk("q1", 1, false), true);
    assert.match(transcriptHtml(t.entries, "zh-TW"), /class="hunk rejected"[^]*已拒絕/);
    t.answered("q1", "Allow");
    assert.equal(t.decideHunk("q1", 0, true), false);
    assert.doesNotMatch(transcriptHtml(t.entries, "en"), /data-hunk=/);
  });
});
