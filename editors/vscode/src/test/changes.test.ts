import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  beforeHunk,
  asChangeOutcome,
  asChanges,
  hunkDescription,
  hunkLines,
  pendingCount,
  refreshOnOwnDiagnostics,
  undoable,
  type HunkInfo,
} from "../core/changes";

function hunk(first: number, last: number, state: HunkInfo["state"], lines = 1): HunkInfo {
  return {
    id: `1.${first}`,
    range: { start: { line: first, character: 0 }, end: { line: last, character: 5 } },
    state,
    added: last - first + 1,
    removed: 1,
    lines,
  };
}

describe("kesi.changes", () => {
  it("puts a hunk's replaced lines back for its diff's old side", () => {
    const range = { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } };
    const hunk = { id: "h", range, state: "pending" as const, added: 1, removed: 1, lines: 1 };
    const now = "a\nB\nc\n";
    assert.equal(beforeHunk(now, { ...hunk, base: "b\n" }), "a\nb\nc\n");
    assert.equal(beforeHunk(now, { ...hunk, lines: 0, base: "x\n" }), "a\nx\nB\nc\n");
    assert.equal(beforeHunk(now, hunk), undefined); // an older server: no diff to show
    assert.equal(beforeHunk(now, { ...hunk, state: "undone", base: "b\n" }), undefined);
  });

  it("keeps the well-formed runs, files and hunks of the answer", () => {
    const listing = asChanges({
      runs: [
        {
          runId: "r1",
          task: "fix add",
          label: "Fix this · calc.py:2 · 20:42 · verified",
          files: [
            { uri: "file:///p/calc.py", path: "calc.py", hunks: [hunk(1, 1, "pending"), 7] },
            { path: "no uri" },
          ],
        },
        "not a run",
      ],
    });
    assert.equal(listing.runs.length, 1);
    assert.equal(listing.runs[0]?.label, "Fix this · calc.py:2 · 20:42 · verified");
    const [file] = listing.runs[0]?.files ?? [];
    assert.equal(file?.path, "calc.py");
    assert.equal(file?.hunks.length, 1);
    assert.deepEqual(asChanges(null), { runs: [] });
  });

  it("names a hunk's lines as the server does, in both locales", () => {
    assert.equal(hunkLines(hunk(1, 1, "pending"), "en"), "line 2");
    assert.equal(hunkLines(hunk(1, 3, "pending"), "en"), "lines 2–4");
    assert.equal(hunkLines(hunk(4, 4, "pending", 0), "en"), "after line 4");
    assert.equal(hunkLines(hunk(1, 3, "kept"), "zh-TW"), "第 2–4 行");
    assert.equal(hunkDescription(hunk(1, 1, "pending"), "en"), "not reviewed yet · −1 +1");
  });

  it("counts what waits for review and what can still be undone", () => {
    const files = [
      { uri: "u", path: "a.py", hunks: [hunk(1, 1, "pending"), hunk(3, 3, "undone")] },
      { uri: "v", path: "b.py", hunks: [hunk(1, 1, "kept")] },
    ];
    assert.equal(pendingCount(files), 1);
    assert.ok(undoable({ runId: "r", task: "", files }));
    const done = [{ uri: "u", path: "a.py", hunks: [hunk(1, 1, "undone")] }];
    assert.ok(!undoable({ runId: "r", task: "", files: done }));
  });

  it("asks again for KeSi's own diagnostics, after the editor has them", () => {
    const seen: string[] = [];
    const handle = refreshOnOwnDiagnostics<string, string>(() => seen.push("refresh"));
    const marks = ["KeSi: not reviewed yet"];
    handle("file:///p/calc.py", marks, (uri, diagnostics) => {
      assert.equal(diagnostics, marks); // passed on as they are
      seen.push(`editor ${uri}`);
    });
    assert.deepEqual(seen, ["editor file:///p/calc.py", "refresh"]);
  });

  it("reads a keep or undo answer", () => {
    const outcome = asChangeOutcome({ message: "KeSi: undid calc.py line 2.", skipped: [] });
    assert.equal(outcome?.message, "KeSi: undid calc.py line 2.");
    assert.deepEqual(outcome?.failed, []);
    assert.equal(asChangeOutcome({}), undefined);
  });
});
