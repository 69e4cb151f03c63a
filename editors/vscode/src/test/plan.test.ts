import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planLines, planRows, planSummary, stepInProgress } from "../core/plan";
import { asPlan, asRunFinished, type PlanItem } from "../core/protocol";
import { statusView } from "../core/runState";
import { StreamRenderer, toolDetail } from "../core/stream";

const ITEMS: PlanItem[] = [
  { content: "Read calc.py", status: "completed" },
  { content: "Fix the sign", status: "in_progress" },
  { content: "Run the tests", status: "pending" },
];

describe("the plan", () => {
  it("reads kesi/plan and refuses a malformed one", () => {
    assert.deepEqual(asPlan({ runId: "r", items: ITEMS }), { runId: "r", items: ITEMS });
    assert.equal(asPlan({ runId: "r", items: [{ content: "x", status: "doing" }] }), undefined);
    assert.equal(asPlan({ runId: "r" }), undefined);
  });

  it("gives the view's rows, its summary and the step in progress", () => {
    const rows = planRows(ITEMS, "en");
    assert.deepEqual(
      rows.map((r) => [r.label, r.icon, r.description]),
      [
        ["Read calc.py", "pass-filled", "done"],
        ["Fix the sign", "arrow-circle-right", "in progress"],
        ["Run the tests", "circle-large-outline", "to do"],
      ],
    );
    assert.equal(planSummary(ITEMS, "en"), "1/3 done");
    assert.equal(planSummary(ITEMS, "zh-TW"), "完成 1/3");
    assert.equal(stepInProgress(ITEMS, "en"), "step 2/3: Fix the sign");
    assert.equal(stepInProgress([{ content: "a", status: "pending" }], "en"), undefined);
  });

  it("writes the final plan and the verdict as the run's last lines", () => {
    let text = "";
    const r = new StreamRenderer({ append: (s) => (text += s) }, () => "en");
    r.runStarted("r1", "Fix this · calc.py:2");
    const finished = asRunFinished({
      runId: "r1",
      status: "done",
      usage: { costUsd: 0.0123 },
      verified: { status: "verified", by: "pytest -q", detail: "pytest -q passed (1 passed)" },
    });
    assert.ok(finished);
    r.runFinished(finished, ITEMS);
    assert.equal(
      text,
      [
        "━━ Fix this · calc.py:2 ━━",
        ...planLines(ITEMS, "en"),
        "✓ verified: pytest -q passed (1 passed)",
        "━━ done · verified · $0.0123 ━━",
        "",
      ].join("\n"),
    );
  });

  it("does not spell the plan out on the todo tool's line (the view shows it)", () => {
    assert.equal(toolDetail({ items: ITEMS }), "");
  });

  it("reads a missing or malformed verdict as none", () => {
    assert.equal(asRunFinished({ runId: "r", status: "done" })?.verified, null);
    assert.equal(asRunFinished({ runId: "r", status: "done", verified: 3 })?.verified, null);
  });

  it("shows the last run's verdict in the status bar, and why in its tooltip", () => {
    const view = statusView(
      {
        running: false,
        sessionCostUsd: 0.5,
        lastVerdict: { status: "failed", by: "pytest -q", detail: "pytest -q failed (1 failed)" },
      },
      true,
      "en",
    );
    assert.equal(view.text, "$(error) KeSi · verification failed $0.5000");
    assert.match(view.tooltip, /^Last run: verification failed: pytest -q failed \(1 failed\)\n/);
    const idle = statusView({ running: false, sessionCostUsd: 0.5 }, true, "zh-TW");
    assert.equal(idle.text, "$(hubot) KeSi $0.5000");
  });
});
