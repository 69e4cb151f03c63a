import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  askArgs,
  fixThisArgs,
  intersects,
  lineLabel,
  runTitle,
  type EditorState,
} from "../core/commandArgs";
import type { Range } from "../core/protocol";

const range = (l1: number, c1: number, l2: number, c2: number): Range => ({
  start: { line: l1, character: c1 },
  end: { line: l2, character: c2 },
});

const diagnostic = (r: Range, message: string) => ({ range: r, message, severity: 1 });

function editor(selection: Range, lineLength = 20): EditorState {
  return {
    uri: "file:///w/calc.py",
    selection,
    cursorLineLength: lineLength,
    diagnostics: [
      diagnostic(range(2, 4, 2, 9), "on line 3"),
      diagnostic(range(10, 0, 10, 1), "far away"),
    ],
  };
}

describe("fixThisArgs", () => {
  it("sends the selection with the diagnostics inside it", () => {
    const args = fixThisArgs(editor(range(1, 0, 4, 0)));
    assert.deepEqual(args.range, range(1, 0, 4, 0));
    assert.deepEqual(
      args.diagnostics.map((d) => d.message),
      ["on line 3"],
    );
    assert.equal(args.uri, "file:///w/calc.py");
  });

  it("takes the cursor's whole line when nothing is selected", () => {
    const args = fixThisArgs(editor(range(2, 6, 2, 6), 17));
    assert.deepEqual(args.range, range(2, 0, 2, 17));
    assert.deepEqual(
      args.diagnostics.map((d) => d.message),
      ["on line 3"],
    );
  });

  it("sends no diagnostics when none touch the code", () => {
    assert.deepEqual(fixThisArgs(editor(range(5, 0, 6, 0))).diagnostics, []);
  });
});

describe("intersects", () => {
  it("counts touching ranges and rejects disjoint ones", () => {
    assert.ok(intersects(range(1, 0, 1, 5), range(1, 5, 1, 9)));
    assert.ok(!intersects(range(1, 0, 1, 4), range(1, 5, 1, 9)));
    assert.ok(intersects(range(0, 0, 9, 0), range(3, 3, 3, 3)));
  });
});

describe("askArgs", () => {
  it("brings the selection along only when there is one", () => {
    assert.deepEqual(askArgs("why?", undefined), { prompt: "why?" });
    assert.deepEqual(askArgs("why?", editor(range(0, 0, 0, 0))), {
      prompt: "why?",
      uri: "file:///w/calc.py",
    });
    assert.deepEqual(askArgs("why?", editor(range(0, 0, 1, 3))), {
      prompt: "why?",
      uri: "file:///w/calc.py",
      range: range(0, 0, 1, 3),
    });
  });
});

describe("titles", () => {
  it("numbers lines from 1 and ignores an end at column 0", () => {
    assert.equal(lineLabel(range(2, 0, 2, 8)), "3");
    assert.equal(lineLabel(range(2, 0, 5, 0)), "3-5");
    assert.equal(lineLabel(range(2, 0, 5, 1)), "3-6");
  });

  it("names the file and lines of a fix, and the question of an ask", () => {
    const rel = (uri: string) => uri.replace("file:///w/", "");
    assert.equal(
      runTitle("kesi.fixThis", { uri: "file:///w/calc.py", range: range(2, 0, 2, 9) }, rel, "en"),
      "Fix this · calc.py:3",
    );
    assert.equal(
      runTitle("kesi.ask", { prompt: "what\ndoes this do?" }, rel, "en"),
      "Ask · what does this do?",
    );
    assert.equal(
      runTitle("kesi.ask", { prompt: "x".repeat(80) }, rel, "zh-TW"),
      `提問 · ${"x".repeat(59)}…`,
    );
  });
});
