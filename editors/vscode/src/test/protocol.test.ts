import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  asHunksChanged,
  asRunFinished,
  asSaveDocumentsParams,
  asStreamEvent,
  asUsage,
  asVerdictChanged,
  isServerCommand,
} from "../core/protocol";

describe("wire readers", () => {
  it("accept the contract's stream events and reject malformed ones", () => {
    assert.deepEqual(asStreamEvent({ runId: "r", kind: "text", text: "hi" }), {
      runId: "r",
      kind: "text",
      text: "hi",
    });
    assert.ok(
      asStreamEvent({ runId: "r", kind: "toolStart", tool: "grep", input: { pattern: "x" } }),
    );
    assert.equal(asStreamEvent({ runId: "r", kind: "text" }), undefined);
    assert.equal(asStreamEvent({ kind: "text", text: "no run" }), undefined);
    assert.equal(asStreamEvent({ runId: "r", kind: "somethingNew" }), undefined);
    assert.equal(asStreamEvent(null), undefined);
  });

  it("read run endings (with the server's words), usage and save requests", () => {
    assert.ok(asRunFinished({ runId: "r", status: "done", text: "" }));
    assert.equal(asRunFinished({ runId: "r" }), undefined);
    assert.equal(asUsage({ requests: 1 }), undefined);
    const finished = asRunFinished({
      runId: "r",
      status: "done",
      statusText: "完成",
      bill: "（…）",
    });
    assert.equal(finished?.statusText, "完成");
    assert.equal(finished?.bill, "（…）");
    assert.deepEqual(asSaveDocumentsParams({ uris: ["file:///a", 3] }), { uris: ["file:///a"] });
  });

  it("read a verdict changed after an undo, and nothing without its verdict or line", () => {
    const verified = {
      status: "unverified",
      text: "verified before your undo",
      by: "t",
      detail: "d",
    };
    const changed = asVerdictChanged({ runId: "r", uri: "file:///p", verified, line: "Fix: …" });
    assert.deepEqual(changed, { runId: "r", uri: "file:///p", verified, line: "Fix: …" });
    assert.equal(asVerdictChanged({ runId: "r", verified, uri: "" }), undefined);
    assert.equal(asVerdictChanged({ runId: "r", line: "x", verified: { status: "?" } }), undefined);
  });

  it("read a file's pending hunks, keeping the well-formed ones", () => {
    const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 9 } };
    const good = {
      id: "1.1",
      range,
      state: "pending",
      added: 1,
      removed: 1,
      lines: 1,
      base: "x\n",
    };
    const changed = asHunksChanged({ uri: "file:///p/a.py", hunks: [good, { id: 3 }, null] });
    assert.deepEqual(changed, { uri: "file:///p/a.py", hunks: [good] });
    assert.deepEqual(asHunksChanged({ uri: "file:///p/a.py", hunks: [] })?.hunks, []);
    assert.equal(asHunksChanged({ hunks: [] }), undefined);
  });

  it("know the server's commands", () => {
    assert.ok(isServerCommand("kesi.fixThis"));
    assert.ok(!isServerCommand("kesi.showOutput"));
  });
});
