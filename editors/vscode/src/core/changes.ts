/**
 * KeSi's change sets as the extension sees them (design.md §2.9): what `kesi.changes` answers,
 * and the tree the **KeSi Changes** view shows (runs → files → hunks), without VS Code itself
 * so it can be tested on its own.
 */

import { t, type Locale } from "./messages";
import type { Range } from "./protocol";

export type HunkState = "pending" | "kept" | "undone" | "modified";

export interface HunkInfo {
  id: string;
  range: Range;
  state: HunkState;
  added: number;
  removed: number;
  /** Lines it covers now; 0: a point where lines were removed. */
  lines?: number;
  /** Its row in the server's words ("lines 8–9 · return x"). */
  label?: string;
  /** The lines it replaced (absent from older servers). */
  base?: string;
}

/** `current` as it was before `hunk` (its lines put back in place of the hunk's): the old side
 * of the hunk's diff. Undefined when the hunk is not there to show (undone or modified). */
export function beforeHunk(current: string, hunk: HunkInfo): string | undefined {
  if (typeof hunk.base !== "string" || (hunk.state !== "pending" && hunk.state !== "kept")) {
    return undefined;
  }
  const lines = current.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const start = hunk.range.start.line;
  const span = hunk.lines ?? hunk.added;
  return [...lines.slice(0, start), hunk.base, ...lines.slice(start + span)].join("");
}

export interface FileInfo {
  uri: string;
  path: string;
  created?: boolean;
  deleted?: boolean;
  takenBack?: boolean;
  gone?: boolean;
  hunks: HunkInfo[];
}

export interface RunInfo {
  runId: string;
  task: string;
  files: FileInfo[];
  /** Its row in the server's words ("Fix this · shop/rates.py:8 · 20:42 · verified"). */
  label?: string;
}

export interface ChangesListing {
  runs: RunInfo[];
}

/** What `kesi.keep` / `kesi.undo` / `kesi.undoRun` answer. */
export interface ChangeOutcome {
  message: string;
  failed: { path: string; reason: string }[];
  skipped: { path: string; hunkId: string | null; reason: string }[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asHunk(value: unknown): HunkInfo | undefined {
  if (!isRecord(value) || typeof value.id !== "string" || !isRecord(value.range)) {
    return undefined;
  }
  return value as unknown as HunkInfo;
}

function asFile(value: unknown): FileInfo | undefined {
  if (!isRecord(value) || typeof value.uri !== "string" || typeof value.path !== "string") {
    return undefined;
  }
  const hunks = Array.isArray(value.hunks) ? value.hunks.map(asHunk) : [];
  return { ...(value as unknown as FileInfo), hunks: hunks.filter((h) => h !== undefined) };
}

/** `kesi.changes`' answer, keeping only what is well formed. */
export function asChanges(value: unknown): ChangesListing {
  if (!isRecord(value) || !Array.isArray(value.runs)) {
    return { runs: [] };
  }
  const runs: RunInfo[] = [];
  for (const run of value.runs) {
    if (!isRecord(run) || typeof run.runId !== "string") {
      continue;
    }
    const files = Array.isArray(run.files) ? run.files.map(asFile) : [];
    runs.push({
      runId: run.runId,
      task: typeof run.task === "string" ? run.task : "",
      files: files.filter((f) => f !== undefined),
      // the row as the server words it; without it the view fell back to the raw task text
      ...(typeof run.label === "string" ? { label: run.label } : {}),
    });
  }
  return { runs };
}

export function asChangeOutcome(value: unknown): ChangeOutcome | undefined {
  if (!isRecord(value) || typeof value.message !== "string") {
    return undefined;
  }
  return {
    message: value.message,
    failed: Array.isArray(value.failed) ? (value.failed as ChangeOutcome["failed"]) : [],
    skipped: Array.isArray(value.skipped) ? (value.skipped as ChangeOutcome["skipped"]) : [],
  };
}

/** "lines 3–4", "line 3", "after line 3" for a hunk (its range is 0-based, as in LSP). */
export function hunkLines(hunk: HunkInfo, locale: Locale): string {
  const first = hunk.range.start.line + 1;
  const last = hunk.range.end.line + 1;
  if (hunk.lines === 0) {
    return first <= 1 ? t("changes.top", locale) : t("changes.after", locale, { line: first - 1 });
  }
  return first === last
    ? t("changes.line", locale, { line: first })
    : t("changes.lines", locale, { first, last });
}

/** The second column of a hunk's row: its state and size. */
export function hunkDescription(hunk: HunkInfo, locale: Locale): string {
  const counts = t("changes.counts", locale, { removed: hunk.removed, added: hunk.added });
  return `${t(`changes.state.${hunk.state}`, locale)} · ${counts}`;
}

export function pendingCount(files: FileInfo[]): number {
  let count = 0;
  for (const file of files) {
    count += file.hunks.filter((hunk) => hunk.state === "pending").length;
  }
  return count;
}

/** Whether anything of `run` can still be undone (for the Undo button of its row). */
export function undoable(run: RunInfo): boolean {
  return run.files.some(
    (file) =>
      file.hunks.some((hunk) => hunk.state === "pending" || hunk.state === "kept") ||
      (file.deleted === true && file.takenBack !== true),
  );
}

/** The per-folder listings merged: newest runs first within each folder, folders in order. */
export function mergeListings(listings: ChangesListing[]): RunInfo[] {
  return listings.flatMap((listing) => listing.runs);
}

/**
 * The language client's `handleDiagnostics` middleware: only KeSi's own `publishDiagnostics`
 * (the pending hunks, from a server that publishes them as diagnostics) pass here, so the
 * **KeSi Changes** view is asked again when they change, and never for another language
 * server's (a linter re-checking on every keystroke). The editor gets them first, as they are.
 */
export function refreshOnOwnDiagnostics<U, D>(
  refresh: () => void,
): (uri: U, diagnostics: D[], next: (uri: U, diagnostics: D[]) => void) => void {
  return (uri, diagnostics, next) => {
    next(uri, diagnostics);
    refresh();
  };
}
