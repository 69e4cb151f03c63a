import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { planRows } from "../core/plan";
import { asPlan, asRunFinished, type PlanItem } from "../core/protocol";
import { statusView } from "../core/runState";
import { StreamRenderer } from "../core/stream";

const ITEMS: PlanItem[] = [
  { content: "Read calc.py", status: "completed" },
  { content: "Fix the sign", status: "in_progress" },
  { content: "Run the tests", status: "pending" },
];
const PLAN = {
  runId: "r",
  items: ITEMS,
  lines: ["〔✓ Read〕", "〔▶ Fix〕", "〔○ Run〕"],
  title: "〔Plan 1/3〕",
  current: "〔step 2/3〕",
};

describe("the plan", () => {
  it("reads kesi/plan with the server's lines, and refuses a malformed one", () => {
    assert.deepEqual(asPlan(PLAN), PLAN);
    assert.equal(asPlan({ ...PLAN, current: null })?.current, null);
    assert.equal(asPlan({ ...PLAN, items: [{ content: "x", status: "doing" }] }), undefined);
    assert.equal(asPlan({ ...PLAN, lines: ["one line for three items"] }), undefined);
    assert.equal(asPlan({ runId: "r" }), undefined);
  });

  it("gives the view's rows the server's lines and each status its icon", () => {
    const plan = asPlan(PLAN);
    assert.ok(plan);
    assert.deepEqual(
      planRows(plan).map((r) => [r.label, r.icon]),
      [
        ["〔✓ Read〕", "pass-filled"],
        ["〔▶ Fix〕", "arrow-circle-right"],
        ["〔○ Run〕", "circle-large-outline"],
      ],
    );
  });

  it("writes the final plan and the server's close before the run's last line", () => {
    let text = "";
    const r = new StreamRenderer({ append: (s) => (text += s) }, () => "en");
    r.runStarted("r1", "Fix this · calc.py:2");
    const finished = asRunFinished({
      runId: "r1",
      status: "done",
      line: "〔done · verified · bill〕",
      bill: "〔bill〕",
      lines: ["  [verified] pytest -q passed (1 passed)", "  〔bill〕"],
      verified: { status: "verified", by: "pytest -q", detail: "pytest -q passed (1 passed)" },
    });
    const plan = asPlan(PLAN);
    assert.ok(finished && plan);
    r.runFinished(finished, plan);
    assert.equal(
      text,
      [
        "━━ Fix this · calc.py:2 ━━",
        "〔Plan 1/3〕",
        "  〔✓ Read〕",
        "  〔▶ Fix〕",
        "  〔○ Run〕",
        "  [verified] pytest -q passed (1 passed)",
        "━━ 〔done · verified · bill〕 ━━",
        "",
      ].join("\n"),
    );
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
        lastVerdict: {
          status: "failed",
          text: "verification failed",
          by: "pytest -q",
          detail: "pytest -q failed (1 failed)",
        },
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
