/**
 * Pending hunks as the editor draws them under `acceptEdits` (design.md §2.9, issue 32): the
 * lines KeSi wrote get an added-line background, and the lines they replaced are shown inline,
 * struck through, after the line that took their place, until the hunk is kept, undone or
 * typed over. The server says where each hunk is and what it replaced (`kesi/hunks`); this
 * module only decides which line carries what, so it is tested without VS Code.
 *
 * VS Code cannot insert lines of its own into a file's view, so each removed line is shown at
 * the end of a written line: the k-th removed line after the k-th written line (a one-for-one
 * change reads as "new  ~~old~~"), the removed lines left over after the last written line. A
 * hunk that only removed lines shows them after the line above the gap (the first line when
 * the gap is at the top).
 */

import { splitLines } from "./hunks";
import type { HunkView } from "./protocol";

/** Lines `first`..`last` (0-based, inclusive) were written by KeSi. */
export interface WrittenLines {
  first: number;
  last: number;
}

/** `text`, removed by a hunk, shown at the end of line `line`. */
export interface RemovedText {
  line: number;
  text: string;
}

export interface HunkMarks {
  written: WrittenLines[];
  removed: RemovedText[];
}

/** Joins removed lines shown on one line: a line break, as the diff would have it. */
export const LINE_BREAK = " ⏎ ";

/** Where the pending `hunks` of a document of `lineCount` lines are drawn. */
export function hunkMarks(hunks: readonly HunkView[], lineCount: number): HunkMarks {
  const marks: HunkMarks = { written: [], removed: [] };
  const lastLine = Math.max(lineCount - 1, 0);
  for (const hunk of hunks) {
    if (hunk.state !== "pending") {
      continue;
    }
    const start = Math.min(hunk.range.start.line, lastLine);
    const span = Math.max(hunk.lines, 0);
    const removed = splitLines(hunk.base ?? "").map((line) => line.replace(/[\r\n]+$/, ""));
    if (span > 0) {
      const last = Math.min(start + span - 1, lastLine);
      marks.written.push({ first: start, last });
      place(marks.removed, removed, start, last);
    } else {
      const host = Math.max(hunk.range.start.line - 1, 0);
      place(marks.removed, removed, Math.min(host, lastLine), Math.min(host, lastLine));
    }
  }
  return marks;
}

/** The removed lines on lines `first`..`last`: one each, the rest on the last. */
function place(out: RemovedText[], removed: string[], first: number, last: number): void {
  const hosts = last - first + 1;
  const own = removed.slice(0, hosts - 1);
  const rest = removed.slice(hosts - 1);
  own.forEach((line, index) => push(out, first + index, [line]));
  push(out, first + own.length, rest);
}

function push(out: RemovedText[], line: number, lines: string[]): void {
  const shown = lines.map((text) => text.trim()).filter((text) => text !== "");
  if (shown.length > 0) {
    out.push({ line, text: shown.join(LINE_BREAK) });
  }
}
