/**
 * The hunks of a `kesi/reviewEdit` diff, for the KeSi panel's inline review: each hunk is shown
 * with its own Accept / Reject, and the text the user accepted is the file with only the
 * accepted hunks applied (the review's `after`, design.md §2.7: "what the user accepted, hunk by
 * hunk", as Neovim's review tab answers).
 *
 * The server's diff is difflib's unified diff of lines that keep their endings (LF, CRLF or a
 * lone CR; `kesi_lsp/core/diff.py`), with git's "\ No newline at end of file" after a last line
 * without one. Parsing that diff, rather than diffing again here, keeps the hunks the user sees
 * the ones the server means. Pure, so it is tested without VS Code.
 */

export interface Hunk {
  /** The hunk's header, as the diff says it (`@@ -3,2 +3,4 @@`). */
  header: string;
  /** 0-based index of the hunk's first line in the current text. */
  oldStart: number;
  /** How many lines of the current text it covers (context included). */
  oldLength: number;
  /** Its body as the diff shows it, one entry a line: " ctx", "-old", "+new" (no endings). */
  shown: string[];
  /** Its lines after the change (context and added), endings kept. */
  newLines: string[];
}

const LINE = /[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g;
const HEADER = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/** Split at LF, CRLF and lone CR, keeping the endings (as the server's `split_lines`). */
export function splitLines(text: string): string[] {
  return text.match(LINE) ?? [];
}

function bare(line: string): string {
  return line.replace(/(?:\r\n|\r|\n)$/, "");
}

/** The diff's hunks (none for an empty or unparsable diff). */
export function parseHunks(diff: string | undefined): Hunk[] {
  const hunks: Hunk[] = [];
  let hunk: Hunk | undefined;
  let last: { list: string[] } | undefined;
  for (const line of splitLines(diff ?? "")) {
    const header = HEADER.exec(line);
    if (header) {
      const length = header[2] === undefined ? 1 : Number(header[2]);
      const start = Number(header[1]);
      hunk = {
        header: bare(line),
        oldStart: length === 0 ? start : start - 1,
        oldLength: length,
        shown: [],
        newLines: [],
      };
      hunks.push(hunk);
      last = undefined;
      continue;
    }
    if (!hunk) {
      continue; // the file headers
    }
    const mark = line[0];
    if (mark === "\\") {
      // The line before had no ending: the diff added "\n" only to show it.
      const list = last?.list;
      if (list && list.length) {
        list[list.length - 1] = list[list.length - 1].replace(/\n$/, "");
      }
      continue;
    }
    const body = line.slice(1);
    hunk.shown.push(mark + bare(body));
    if (mark === " " || mark === "+") {
      hunk.newLines.push(body);
      last = { list: hunk.newLines };
    } else {
      last = undefined;
    }
  }
  return hunks;
}

/**
 * The text after applying only the hunks whose `accepted[i]` is true to `before` (a new file's
 * `before` is null: its one hunk is all of it).
 */
export function applyHunks(
  before: string | null,
  hunks: readonly Hunk[],
  accepted: readonly boolean[],
): string {
  const old = splitLines(before ?? "");
  const out: string[] = [];
  let cursor = 0;
  hunks.forEach((hunk, index) => {
    if (!accepted[index]) {
      return;
    }
    out.push(...old.slice(cursor, hunk.oldStart), ...hunk.newLines);
    cursor = hunk.oldStart + hunk.oldLength;
  });
  out.push(...old.slice(cursor));
  return out.join("");
}

const NEW_START = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

/**
 * The 0-based line of the proposed text where `hunk`'s first change is (its lens in the diff
 * editor's proposed side): the new side's start, past the leading context lines.
 */
export function proposedLine(hunk: Hunk): number {
  const header = NEW_START.exec(hunk.header);
  const start = header ? Number(header[1]) : 1;
  const length = header?.[2] === undefined ? 1 : Number(header[2]);
  let line = length === 0 ? start : start - 1;
  for (const shown of hunk.shown) {
    if (shown[0] !== " ") {
      break;
    }
    line += 1;
  }
  return Math.max(0, line);
}
