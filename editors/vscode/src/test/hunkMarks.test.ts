import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { hunkMarks, LINE_BREAK } from "../core/hunkMarks";
import type { HunkView } from "../core/protocol";

function hunk(start: number, lines: number, base: string, state = "pending"): HunkView {
  const last = Math.max(start + lines - 1, start);
  return {
    id: `1.${start}`,
    range: { start: { line: start, character: 0 }, end: { line: last, character: 4 } },
    state: state as HunkView["state"],
    added: lines,
    removed: base.split("\n").length - 1,
    lines,
    label: `line ${start + 1}`,
    base,
  };
}

describe("pending hunks in the editor", () => {
  it("marks the written lines and shows the replaced line after its replacement", () => {
    const marks = hunkMarks([hunk(1, 1, "    return a - b\n")], 6);
    assert.deepEqual(marks.written, [{ first: 1, last: 1 }]);
    assert.deepEqual(marks.removed, [{ line: 1, text: "return a - b" }]);
  });

  it("pairs removed lines with written ones, the rest on the last written line", () => {
    const three = hunk(4, 2, "a = 1\nb = 2\r\nc = 3\n");
    assert.deepEqual(hunkMarks([three], 10).removed, [
      { line: 4, text: "a = 1" },
      { line: 5, text: `b = 2${LINE_BREAK}c = 3` },
    ]);
    const grew = hunk(2, 3, "x\n");
    assert.deepEqual(hunkMarks([grew], 10), {
      written: [{ first: 2, last: 4 }],
      removed: [{ line: 2, text: "x" }],
    });
  });

  it("shows lines only removed after the line above the gap, or on the first line", () => {
    assert.deepEqual(hunkMarks([hunk(3, 0, "gone()\nalso()\n")], 8), {
      written: [],
      removed: [{ line: 2, text: `gone()${LINE_BREAK}also()` }],
    });
    assert.deepEqual(hunkMarks([hunk(0, 0, "# header\n")], 8).removed, [
      { line: 0, text: "# header" },
    ]);
  });

  it("shows nothing removed for a pure addition, and nothing of hunks no longer pending", () => {
    assert.deepEqual(hunkMarks([hunk(2, 2, "")], 8), {
      written: [{ first: 2, last: 3 }],
      removed: [],
    });
    const blank = hunk(2, 1, "\n");
    assert.deepEqual(hunkMarks([blank], 8).removed, []);
    for (const state of ["kept", "undone", "modified"]) {
      assert.deepEqual(hunkMarks([hunk(1, 1, "old\n", state)], 4), { written: [], removed: [] });
    }
  });

  it("stays inside the document when the server's lines run past its end", () => {
    assert.deepEqual(hunkMarks([hunk(5, 3, "old\n")], 6), {
      written: [{ first: 5, last: 5 }],
      removed: [{ line: 5, text: "old" }],
    });
    const older = hunk(1, 1, "");
    delete older.base;
    assert.deepEqual(hunkMarks([older], 3).removed, []); // an older server: no base
  });
});
