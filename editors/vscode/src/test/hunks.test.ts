import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { applyHunks, parseHunks, proposedLine } from "../core/hunks";

// Diffs as the server writes them (kesi_lsp/core/diff.py's unified_diff, copied from its output).
const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`).join("");
const twoHunks =
  "--- a/x.py\n+++ b/x.py\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n line 4\n" +
  " line 5\n@@ -16,5 +16,6 @@\n line 16\n line 17\n line 18\n+line 18b\n line 19\n line 20\n";

describe("review hunks", () => {
  it("splits the server's diff into its hunks, shown line by line", () => {
    const hunks = parseHunks(twoHunks);
    assert.deepEqual(
      hunks.map((h) => h.header),
      ["@@ -1,5 +1,5 @@", "@@ -16,5 +16,6 @@"],
    );
    assert.deepEqual(hunks[0].shown.slice(0, 3), [" line 1", "-line 2", "+line two"]);
  });

  it("puts each hunk's lens on its first change in the proposed text", () => {
    const hunks = parseHunks(twoHunks);
    assert.deepEqual(hunks.map(proposedLine), [1, 18]); // "line two", "line 18b" (0-based)
    const created = parseHunks("--- /dev/null\n+++ b/n.py\n@@ -0,0 +1,2 @@\n+a\n+b\n");
    assert.deepEqual(created.map(proposedLine), [0]);
  });

  it("applies only the accepted hunks", () => {
    const hunks = parseHunks(twoHunks);
    const all = before
      .replace("line 2\n", "line two\n")
      .replace("line 18\n", "line 18\nline 18b\n");
    assert.equal(applyHunks(before, hunks, [true, true]), all);
    assert.equal(applyHunks(before, hunks, [false, false]), before);
    assert.equal(
      applyHunks(before, hunks, [true, false]),
      before.replace("line 2\n", "line two\n"),
    );
    assert.equal(
      applyHunks(before, hunks, [false, true]),
      before.replace("line 18\n", "line 18\nline 18b\n"),
    );
  });

  it("keeps CRLF, a lone last line without an ending, and a new file", () => {
    const diff =
      "--- a/x.py\n+++ b/x.py\n@@ -1,3 +1,4 @@\n a\r\n-b\r\n-c\n\\ No newline at end of file\n" +
      "+B\r\n+c\r\n+d\n\\ No newline at end of file\n";
    assert.equal(applyHunks("a\r\nb\r\nc", parseHunks(diff), [true]), "a\r\nB\r\nc\r\nd");
    const created = "--- /dev/null\n+++ b/n.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n";
    assert.equal(applyHunks(null, parseHunks(created), [true]), "x = 1\ny = 2\n");
    assert.equal(applyHunks(null, parseHunks(created), [false]), "");
  });
});
