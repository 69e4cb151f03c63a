import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { RunTracker, statusView } from "../core/runState";

const usage = (costUsd: number) => ({
  requests: 2,
  inputTokens: 100,
  outputTokens: 20,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd,
});

describe("RunTracker", () => {
  it("is running from the first sign of a run until it finishes", () => {
    const tracker = new RunTracker();
    let changes = 0;
    tracker.onChange(() => changes++);
    assert.equal(tracker.running, false);
    tracker.started("a");
    assert.equal(tracker.running, true);
    assert.equal(tracker.currentRunId, "a");
    tracker.finished({ runId: "a", status: "done" });
    assert.equal(tracker.running, false);
    assert.equal(tracker.currentRunId, undefined);
    assert.ok(changes >= 2);
  });

  it("takes the session cost from usage events and keeps it after the run", () => {
    const tracker = new RunTracker();
    tracker.event({ runId: "a", kind: "usage", session: usage(0.0042) });
    assert.equal(tracker.running, true);
    assert.equal(tracker.sessionCostUsd, 0.0042);
    tracker.finished({ runId: "a", status: "done" });
    assert.equal(tracker.sessionCostUsd, 0.0042);
  });

  it("does not resurrect a finished run from a late event", () => {
    const tracker = new RunTracker();
    tracker.started("a");
    tracker.finished({ runId: "a", status: "cancelled" });
    tracker.event({ runId: "a", kind: "text", text: "late" });
    assert.equal(tracker.running, false);
  });

  it("cancels the newest live run first", () => {
    const tracker = new RunTracker();
    tracker.started("a");
    tracker.started("b");
    assert.equal(tracker.currentRunId, "b");
    tracker.finished({ runId: "b", status: "done" });
    assert.equal(tracker.currentRunId, "a");
  });

  it("shows the verdict the server changed after an undo, for the run it shows", () => {
    const tracker = new RunTracker();
    const verified = { status: "verified" as const, text: "verified", by: "pytest", detail: "" };
    tracker.finished({ runId: "a", status: "done", verified });
    const before = {
      status: "unverified" as const,
      text: "verified before your undo",
      by: "pytest",
      detail: "pytest passed before you undid calc.py line 2",
    };
    tracker.verdictChanged("other", before);
    assert.equal(tracker.lastVerdict?.status, "verified");
    tracker.verdictChanged("a", before);
    assert.deepEqual(tracker.lastVerdict, before);
    const view = statusView(tracker, true, "en");
    assert.ok(view.text.includes("verified before your undo"), view.text);
    assert.ok(view.tooltip.includes("before you undid calc.py line 2"), view.tooltip);
  });

  it("forgets every run when the server goes away", () => {
    const tracker = new RunTracker();
    tracker.started("a");
    tracker.forgetRuns();
    assert.equal(tracker.running, false);
    tracker.event({ runId: "a", kind: "text", text: "x" });
    assert.equal(tracker.running, false);
  });
});

describe("statusView", () => {
  it("shows the session cost with four decimals and opens the output when idle", () => {
    const view = statusView({ running: false, sessionCostUsd: 0.0189 }, true, "en");
    assert.equal(view.text, "$(hubot) KeSi $0.0189");
    assert.equal(view.command, "kesi.showOutput");
  });

  it("spins and cancels on click while a run is going", () => {
    const view = statusView({ running: true, sessionCostUsd: undefined }, true, "en");
    assert.equal(view.text, "$(loading~spin) KeSi: running $0.0000");
    assert.equal(view.command, "kesi.cancel");
    assert.match(view.tooltip, /click to cancel/);
  });

  it("adds the last run's bill to the tooltip, in the server's words", () => {
    const tracker = new RunTracker();
    tracker.started("a");
    const bill = "（本輪 1 次請求，input 100、output 20，$0.0002；累計 $0.0002）";
    tracker.finished({ runId: "a", status: "done", bill });
    assert.equal(tracker.lastBill, bill);
    const view = statusView(tracker, true, "zh-TW");
    assert.ok(view.tooltip.endsWith(`\n${bill}`), view.tooltip);
    tracker.finished({ runId: "b", status: "failed", bill: null });
    assert.equal(tracker.lastBill, bill, "a run without a request keeps the last bill");
  });

  it("warns when the server is not running", () => {
    const view = statusView({ running: false, sessionCostUsd: 1 }, false, "zh-TW");
    assert.equal(view.text, "$(warning) KeSi");
    assert.equal(view.command, "kesi.showServerLog");
    assert.match(view.tooltip, /伺服器沒有在執行/);
  });
});
