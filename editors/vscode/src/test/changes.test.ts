import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  asChangeOutcome,
  asChanges,
  hunkDescription,
  hunkLines,
  pendingCount,
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
  it("keeps the well-formed runs, files and hunks of the answer", () => {
    const listing = asChanges({
      runs: [
        {
          runId: "r1",
          task: "fix add",
          files: [
            { uri: "file:///p/calc.py", path: "calc.py", hunks: [hunk(1, 1, "pending"), 7] },
            { path: "no uri" },
          ],
        },
        "not a run",
      ],
    });
    assert.equal(listing.runs.length, 1);
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

  it("reads a keep or undo answer", () => {
    const outcome = asChangeOutcome({ message: "KeSi: undid calc.py line 2.", skipped: [] });
    assert.equal(outcome?.message, "KeSi: undid calc.py line 2.");
    assert.deepEqual(outcome?.failed, []);
    assert.equal(asChangeOutcome({}), undefined);
  });
});
